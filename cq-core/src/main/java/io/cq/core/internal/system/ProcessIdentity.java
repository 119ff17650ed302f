package io.cq.core.internal.system;

import io.cq.core.internal.layout.LockWordDescriptor;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;

/** Who this process is, for lock tokens and for error messages that name a holder. */
public final class ProcessIdentity {
    private static final long PID = ProcessHandle.current().pid();
    private static final AtomicInteger NEXT_TOKEN = new AtomicInteger(1);

    private ProcessIdentity() {
    }

    public static long pid() {
        return PID;
    }

    /** A write-lock token unique among live holders ({@link LockWordDescriptor}). */
    public static long newToken(int processSlot) {
        return LockWordDescriptor.token(PID, processSlot, NEXT_TOKEN.getAndIncrement());
    }

    public static String describeCurrentThread() {
        return "pid " + PID + " on " + Host.NAME + ", thread '" + Thread.currentThread().getName() + "'";
    }

    /** Resolved on first use only: a name lookup has no place on the path to a queue's first excerpt. */
    private static final class Host {
        static final String NAME = hostName();

        private static String hostName() {
            String fromEnvironment = System.getenv("HOSTNAME");
            if (fromEnvironment != null && !fromEnvironment.isBlank()) {
                return fromEnvironment;
            }
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                return "unknown host";
            }
        }
    }
}
