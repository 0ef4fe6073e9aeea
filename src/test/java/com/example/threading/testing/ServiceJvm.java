package com.example.threading.testing;

import com.example.threading.ThreadingApplication;
import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * How a test starts the service in a JVM of its own, as operators run it ({@code server config.yml}, so
 * {@code Application.run} registers the JVM metrics too): this test's class path, a small heap, settings from
 * {@code environment}, output appended to {@code log}. The caller starts the process and stops it by its handle.
 *
 * <p>Thread-safety: stateless.
 */
public final class ServiceJvm {

    private ServiceJvm() {
    }

    /** A process builder for the service with {@code environment} added to this JVM's. */
    public static ProcessBuilder builder(File log, Map<String, String> environment) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-cp", classPath, ThreadingApplication.class.getName(), "server", "config.yml"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
        builder.environment().putAll(environment);
        return builder;
    }
}
