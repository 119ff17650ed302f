package io.cq.core.internal.system;

import java.net.InetAddress;

/** Who this process is, for the process records of table stores and for error messages that name a holder. */
public final class ProcessIdentity {
    private static final long PID = ProcessHandle.current().pid();

    private ProcessIdentity() {
    }

    public static long pid() {
        return PID;
    }

    /** This machine's (or container's) name: {@code HOSTNAME}, else the resolved local host name. */
    public static String hostName() {
        return Host.NAME;
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
