package com.example.threading.load.engine.jvm;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Optional;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The tool's own GC log: HotSpot's {@code VM.log} diagnostic command (the one {@code jcmd <pid> VM.log} runs),
 * called on this JVM's DiagnosticCommand MBean, adds a file output for {@code gc*} with {@link GcLog#DECORATORS}
 * while a run lasts, so the tool's pauses are read with the same parser as the service's {@code -Xlog:gc*}.
 */
public final class ToolGcLog implements AutoCloseable {

    private static final String[] SIGNATURE = {String[].class.getName()};

    private final Path file;

    private ToolGcLog(Path file) {
        this.file = file;
    }

    /** Starts logging this JVM's GC to {@code file}; empty (nothing logged) where the JVM has no such command. */
    public static Optional<ToolGcLog> start(Path file) {
        try {
            vmLog("output=file=" + file.toAbsolutePath(), "what=gc*", "decorators=" + GcLog.DECORATORS);
            return Optional.of(new ToolGcLog(file));
        } catch (JMException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The log file. */
    public Path file() {
        return file;
    }

    /** Stops writing the file (the output is switched off; the file stays). */
    @Override
    public void close() {
        try {
            vmLog("output=file=" + file.toAbsolutePath(), "what=all=off");
        } catch (JMException | RuntimeException e) {
            // The JVM keeps logging GC into the file until it exits: harmless.
        }
    }

    private static void vmLog(String... arguments) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        server.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmLog", new Object[] {arguments}, SIGNATURE);
    }
}
