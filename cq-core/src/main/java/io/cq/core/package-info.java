/**
 * cq: a persisted, memory-mapped queue. Start with {@link io.cq.core.MappedQueue#builder(java.nio.file.Path)};
 * write with an {@link io.cq.core.ExcerptAppender}, read with an {@link io.cq.core.ExcerptTailer}. The file format
 * and the concurrency protocol are described in {@code docs/file-format.md}.
 */
package io.cq.core;
