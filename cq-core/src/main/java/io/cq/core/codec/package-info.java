/**
 * Excerpt codecs: checksums, compression and encryption at rest, chosen per queue (docs/codecs.md). Their bytes are
 * in docs/file-format.md, "Excerpt codecs".
 */
package io.cq.core.codec;
