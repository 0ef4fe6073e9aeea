package com.example.threading.metrics;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What {@link LiveInstance} and {@link PrometheusServer} do alike with the process they start: pick a free loopback
 * port, wait until it answers, stop it by its handle (SIGTERM, then SIGKILL).
 *
 * <p>Thread-safety: stateless.
 */
final class ChildProcesses {

    private ChildProcesses() {
    }

    /** A loopback port free right now. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits up to {@code bound} until {@code url} answers 200; fails at once if {@code process} exits, and stops it on failure. */
    static void awaitOk(Process process, LoopbackHttp http, String url, Duration bound, String what) {
        try {
            Await.until(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError(what + " exited with " + process.exitValue());
                }
                try {
                    return http.get(url).status() == 200;
                } catch (RuntimeException notUpYet) {
                    return false;
                }
            }, bound, what + " answering " + url);
        } catch (RuntimeException | Error failed) {
            stop(process);
            throw failed;
        }
    }

    /** SIGTERM, up to 20 s, then SIGKILL; a no-op when the process has ended. */
    static void stop(Process process) {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException interrupted) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
