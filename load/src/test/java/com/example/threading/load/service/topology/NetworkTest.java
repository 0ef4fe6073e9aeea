package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The namespaces, for real (root): each host resolves the others by name through its own hosts file and reaches them
 * over the bridge, a program gets the file limit it is given, and nothing is left behind: not on close, not when the
 * tool is interrupted (Ctrl-C), and not after a run killed outright, once the next run has swept.
 */
class NetworkTest {

    @BeforeEach
    void machineCanRunTopologies() {
        TopologyMachine.require();
    }

    @Test
    void hostsResolveEachOtherAndRunProgramsWithTheirFileLimit(@TempDir Path folder) throws Exception {
        String prefix;
        try (Network network = Network.create(List.of("a", "b"))) {
            prefix = network.prefix();
            Network.Host a = network.host("a");
            Network.Host b = network.host("b");
            assertThat(network.run(a, "getent", "hosts", "b")).startsWith(b.address());
            assertThat(network.run(b, "getent", "hosts", "a")).startsWith(a.address());
            assertThat(network.run(a, "ip", "-o", "-4", "addr", "show", "dev", "eth0")).contains(a.address() + "/24");
            // No route beyond the bridge: the namespace knows its /24 and nothing else.
            assertThat(network.run(a, "ip", "route", "show").strip().lines()).hasSize(1);

            HostProcess sleeper = HostProcess.start(network, a, List.of("sleep", "30"), Map.of("ONLY", "this"),
                    Optional.of(new ComposeFile.FileLimit(1234, 2345)), folder.resolve("sleep.log"));
            // ip netns exec, then prlimit, exec into sleep under the same pid: read it once it is sleep.
            Path proc = Path.of("/proc", Long.toString(sleeper.pid()));
            for (int i = 0; i < 100 && !Files.readString(proc.resolve("comm")).strip().equals("sleep"); i++) {
                Thread.sleep(50);
            }
            assertThat(Files.readString(proc.resolve("comm")).strip()).isEqualTo("sleep");
            String limits = Files.readString(proc.resolve("limits"));
            assertThat(limits).containsPattern("Max open files\\s+1234\\s+2345");
            String environment = Files.readString(proc.resolve("environ")).replace('\0', '\n');
            assertThat(environment.lines()).containsExactlyInAnyOrder("ONLY=this", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
            assertThat(network.remains()).isNotEmpty();
        }
        assertThat(Network.remainsOf(prefix)).isEmpty();
    }

    @Test
    void aRunInterruptedWithCtrlCRemovesWhatItMadeAndWhatRanInIt(@TempDir Path folder) throws Exception {
        Process child = holder(folder);
        String[] ready = awaitReady(child);
        Commands.run(List.of("kill", "-INT", Long.toString(child.pid())));
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child ends on SIGINT").isTrue();
        assertThat(Network.remainsOf(ready[1])).isEmpty();
        assertThat(ProcessHandle.of(Long.parseLong(ready[2])).map(ProcessHandle::isAlive)).as("the sleeper").isNotEqualTo(Optional.of(true));
    }

    @Test
    void aRunKilledOutrightIsSweptByTheNextOne(@TempDir Path folder) throws Exception {
        Process child = holder(folder);
        String[] ready = awaitReady(child);
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(Network.remainsOf(ready[1])).as("a SIGKILL runs no hook").isNotEmpty();

        List<String> removed = Network.removeLeftovers();
        assertThat(removed).contains("namespace " + ready[1] + "-a", "namespace " + ready[1] + "-b", "link " + ready[1] + "br");
        assertThat(Network.remainsOf(ready[1])).isEmpty();
        long sleeper = Long.parseLong(ready[2]);
        for (int i = 0; i < 50 && ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(100);
        }
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive)).as("the sleeper left in the namespace").isNotEqualTo(Optional.of(true));
    }

    /**
     * Starts {@link NetworkHolder} in its own JVM. Through perl, which puts SIGINT back to its default before exec: a
     * process started in the background by a non-interactive shell (a CI runner, {@code nohup ... &}) inherits SIGINT
     * ignored, and a JVM that starts with SIGINT ignored installs no handler for it, so Ctrl-C would never reach it.
     */
    private static Process holder(Path folder) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"", java.toString(), "-cp",
                System.getProperty("java.class.path"), NetworkHolder.class.getName(), folder.resolve("sleeper.log").toString())
                .redirectErrorStream(true).start();
    }

    /** The child's "ready tp<pid> <sleeper pid>" line, split; kills it and fails with its output when that takes over a minute. */
    private static String[] awaitReady(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        CompletableFuture<String[]> ready = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("ready ")) {
                        return line.split(" ");
                    }
                    seen.append(line).append('\n');
                }
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            String[] words = ready.get(60, TimeUnit.SECONDS);
            if (words == null) {
                throw new IOException("the child ended before it was ready:\n" + seen);
            }
            return words;
        } catch (TimeoutException e) {
            child.destroyForcibly();
            throw new IOException("the child was not ready within 60 s:\n" + seen, e);
        }
    }
}
