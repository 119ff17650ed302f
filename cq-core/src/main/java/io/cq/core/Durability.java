package io.cq.core;

/**
 * When appended excerpts are forced from memory to storage. Every mode survives the death of the process
 * (excerpts live in the OS page cache as soon as they are published); they differ in what an OS crash or a power
 * loss takes with it. See docs/operations.md.
 */
public enum Durability {
    /** Leave write-back to the OS (typically within 30 s). Fastest; an OS crash loses what was not yet written. */
    PAGE_CACHE,
    /**
     * A background thread forces written pages to storage every {@code syncInterval}: an OS crash loses at most
     * about that interval of excerpts. Appending is as fast as with {@link #PAGE_CACHE}.
     */
    ASYNC,
    /**
     * Each append forces its excerpt's pages to storage before it returns: what was appended survives an OS crash.
     * Costs a storage round trip per excerpt (milliseconds on most disks).
     */
    SYNC
}
