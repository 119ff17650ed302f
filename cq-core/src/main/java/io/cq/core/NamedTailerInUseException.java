package io.cq.core;

/** A named tailer was asked for while another live tailer, in this or another process, holds that name. */
public final class NamedTailerInUseException extends QueueException {
    private final String holder;

    public NamedTailerInUseException(String queue, String name, String holder) {
        super("named tailer '" + name + "' of queue " + queue + " is held by " + holder
                + "; close that tailer (or stop that process) first");
        this.holder = holder;
    }

    /** Who holds the name, as the holder described itself: process id, host and thread. */
    public String holder() {
        return holder;
    }
}
