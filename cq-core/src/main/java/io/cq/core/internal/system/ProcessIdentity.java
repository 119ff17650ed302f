package io.cq.core.internal.system;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** Who this process is, for the process records of table stores and for error messages that name a holder. */
public final class ProcessIdentity {
    private static final Path SELF = Path.of("/proc/self");
    private static final long PID = currentPid();
    private static final Path KERNEL_HOST_NAME = Path.of("/proc/sys/kernel/hostname");
    /** Null until {@link #hostName()} first finds it. */
    private static volatile String hostName;

    private ProcessIdentity() {
    }

    public static long pid() {
        return PID;
    }

    /**
     * On Linux, the target of {@code /proc/self}: {@code ProcessHandle.current()} starts the JDK's process-reaper
     * machinery, milliseconds of class loading and code generation on the path to a new process's first excerpt.
     */
    private static long currentPid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(SELF).toString());
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().pid();
        }
    }

    /**
     * This machine's (or container's) name: the kernel's (Linux), else {@code HOSTNAME}, else the resolved local host
     * name. Found on first use, not when this class loads (a pid is wanted earlier, and more often); not in a holder
     * class either, which would be one more class to load on the path to a first excerpt. Two threads that race here
     * find the same name.
     */
    public static String hostName() {
        String name = hostName;
        if (name == null) {
            name = findHostName();
            hostName = name;
        }
        return name;
    }

    public static String describeCurrentThread() {
        return "pid " + PID + " on " + hostName() + ", thread '" + Thread.currentThread().getName() + "'";
    }

    private static String findHostName() {
        // The kernel's name for this UTS namespace, what hostname(1) prints: a file read, where resolving the local
        // host costs tens of milliseconds of class loading and name service on the path to the first append, and
        // the first System.getenv half a millisecond of parsing the whole environment.
        try {
            String kernel = Files.readString(KERNEL_HOST_NAME).strip();
            if (!kernel.isEmpty()) {
                return kernel;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: ask the environment, then resolve it below
        }
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
