package com.example.threading.floors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Server CPU per request of this JVM, with h2load as the load (HTTP/1.1, closed loop), for the one-off floor
 * measurements that run a bare Jetty in this process: warm-ups, then a measured stretch whose {@code utime + stime}
 * is divided by the requests answered. Linux only; h2load must be installed.
 */
public final class H2loadCpu {

    /** The connections the {@code cost} scenario loads a request-response path with. */
    public static final int CONNECTIONS = 16;

    private static final int WARMUP_SECONDS = 30;
    private static final int MEASURED_SECONDS = 10;

    private H2loadCpu() {
    }

    /** Warms {@code url} up with h2load, then measures: CPU time of this process over successful answers. */
    public static double microsPerRequest(String url, int connections) throws IOException, InterruptedException {
        h2load(url, connections, WARMUP_SECONDS);
        h2load(url, connections, 5); // new connections' first requests recompile a little: out of the measured stretch
        long before = MachineFacts.cpuTicks();
        long answered = h2load(url, connections, MEASURED_SECONDS);
        long ticks = MachineFacts.cpuTicks() - before;
        return ticks * 1_000_000.0 / 100 / answered; // Linux reports CPU time in 1/100 s
    }

    /** Runs h2load on {@code url} for {@code seconds}; returns the requests it counted as succeeded. */
    private static long h2load(String url, int connections, int seconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("h2load", "--h1", "-c", Integer.toString(connections), "-D", Integer.toString(seconds), url)
                .redirectErrorStream(true).start();
        String output;
        try {
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            process.destroy();
        }
        if (process.waitFor() != 0) {
            throw new IllegalStateException("h2load failed (install it: apt-get install nghttp2-client):\n" + output);
        }
        for (String line : output.split("\n")) {
            if (line.startsWith("requests:")) {
                // requests: N total, N started, N done, N succeeded, N failed, ...
                List<String> words = List.of(line.split("[ ,]+"));
                long succeeded = Long.parseLong(words.get(words.indexOf("succeeded") - 1));
                long failed = Long.parseLong(words.get(words.indexOf("failed") - 1));
                if (failed > 0) {
                    throw new IllegalStateException(failed + " requests failed:\n" + output);
                }
                return succeeded;
            }
        }
        throw new IllegalStateException("no requests line in h2load's output:\n" + output);
    }
}
