package com.example.threading.jetty.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/** The service never runs "virtual threads" on platform threads, nor with the 200-request bound by accident. */
class ServerVirtualThreadsRefusalTest {

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void theSwitchBelowJdk21ExitsNonZeroWithAClearMessage(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("output.txt");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
                ThreadingApplication.class.getName(), "server", Path.of("config.yml").toAbsolutePath().toString()))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("SERVER_VIRTUAL_THREADS", "true");
        builder.environment().put("APP_BIND_HOST", "127.0.0.1");
        builder.environment().put("APP_PORT", "0");
        builder.environment().put("ADMIN_PORT", "0");
        builder.environment().put("EVENTS_TICK_PERIOD", "0s");
        Process service = builder.start();
        try {
            assertThat(service.waitFor(60, TimeUnit.SECONDS)).as("the service exits by itself").isTrue();
            String printed = read(output);
            assertThat(service.exitValue()).as(printed).isNotZero();
            assertThat(printed).contains("needs JDK 21+").contains("SERVER_VIRTUAL_THREADS=true")
                    .contains(Runtime.version().toString());
            assertThat(printed).as("never started serving").doesNotContain("Started Server");
        } finally {
            service.destroyForcibly();
        }
    }

    @Test
    void dropwizardsOwnFlagIsRefusedWithTheSwitchToUseInstead() {
        DropwizardTestSupport<ThreadingConfiguration> server = new DropwizardTestSupport<>(
                ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("server.enableVirtualThreads", "true"));
        try {
            assertThatThrownBy(server::before)
                    .hasStackTraceContaining("server.enableVirtualThreads is on")
                    .hasStackTraceContaining("server.maxThreads (200)")
                    .hasStackTraceContaining("SERVER_VIRTUAL_THREADS=true");
        } finally {
            server.after();
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
