package com.example.threading.load.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServerPidTest {

    /** A JVM that waits, as the child of a shell. */
    public static final class Waits {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(30_000);
        }
    }

    @Test
    void aJvmIsMeasuredAsItIs() {
        ServerPid resolved = ServerPid.resolve(ProcessHandle.current().pid());

        assertThat(resolved.process()).contains(ProcessHandle.current());
        assertThat(resolved.caveats()).isEmpty();
    }

    @Test
    void aShellThatLaunchedTheJvmIsReplacedByItsJvmChild() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("java.class.path");
        // "; true" keeps the shell alive as the JVM's parent (no exec), as `$!` of a launcher would be.
        Process shell = new ProcessBuilder("sh", "-c", "'" + java + "' -Xmx16m -cp '" + classpath + "' " + Waits.class.getName() + "; true").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // Until the forked child has exec'd java.
            while (jvmBelow(shell).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            ProcessHandle jvm = jvmBelow(shell).orElseThrow();

            ServerPid resolved = ServerPid.resolve(shell.pid());

            assertThat(resolved.process()).contains(jvm);
            assertThat(resolved.caveats()).singleElement().asString().contains("not a JVM").contains(Long.toString(jvm.pid()));
        } finally {
            List<ProcessHandle> children = shell.descendants().toList();
            children.forEach(ProcessHandle::destroyForcibly);
            shell.destroyForcibly();
        }
    }

    private static java.util.Optional<ProcessHandle> jvmBelow(Process shell) {
        return shell.descendants().filter(process -> process.info().command().map(command -> command.endsWith("/java")).orElse(false)).findFirst();
    }

    @Test
    void anUnknownProcessIsNotMeasured() {
        ServerPid resolved = ServerPid.resolve(Integer.MAX_VALUE - 7);

        assertThat(resolved.process()).isEmpty();
        assertThat(resolved.caveats()).singleElement().asString().contains("no process");
    }
}
