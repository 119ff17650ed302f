package io.cq.core;

/** Which way a tailer moves after each excerpt it reads. */
public enum TailerDirection {
    /** Towards newer excerpts: index + 1, then into later cycles. */
    FORWARD,
    /** Towards older excerpts: index - 1, then into earlier cycles. */
    BACKWARD
}
