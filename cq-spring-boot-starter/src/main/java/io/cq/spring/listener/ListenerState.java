package io.cq.spring.listener;

/** What a listener container is doing. */
public enum ListenerState {
    /** Created and not started yet, or started with auto-startup off and not started by hand. */
    CREATED,
    /** Its thread reads the queue and calls the listener. */
    RUNNING,
    /** Its thread runs but reads nothing until resumed. */
    PAUSED,
    /** Stopped on request; its position is committed up to the last excerpt processed. */
    STOPPED,
    /** Stopped by an error: a recoverer asked to stop, or reading the queue failed. Reported DOWN by health. */
    FAILED
}
