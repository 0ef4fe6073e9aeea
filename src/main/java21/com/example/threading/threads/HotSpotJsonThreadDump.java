package com.example.threading.threads;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * The JDK's JSON thread dump (JDK 21+), as {@code jcmd <pid> Thread.dump_to_file -format=json} writes it: every
 * platform and virtual thread, grouped by the container that owns it (an executor, a structured task scope, or the
 * root), each with its name, state and stack.
 */
final class HotSpotJsonThreadDump implements JsonThreadDump {

    private final HotSpotDiagnosticMXBean diagnostics = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);

    /** Writes the dump to {@code file}, an absolute path that must not exist yet. */
    @Override
    public void writeTo(Path file) throws IOException {
        diagnostics.dumpThreads(file.toString(), ThreadDumpFormat.JSON);
    }
}
