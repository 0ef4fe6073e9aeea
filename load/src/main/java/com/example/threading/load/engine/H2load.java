package com.example.threading.load.engine;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * h2load (nghttp2's C load generator, Debian's {@code nghttp2-client}) as the tool runs it: where it is, its command
 * line for a fixed rate over a number of connections, and one line of its per-request log. Used for the probe's
 * loaders ({@link H2loadLoad}) and for the cross-check beside the probe ({@link CrossCheck}).
 *
 * <p>h2load paces each connection with {@code --rps} (a timer every max(10 ms, 1/rps) adds the requests that fell
 * due; with {@code -m 1} a connection sends one at a time and the rest wait for its answer) and logs every request
 * that ends during its {@code -D} duration ({@code --log-file}: start in µs since the epoch, status or -1 when the
 * stream failed, µs from the moment it really sent the request to the end of the response). Requests still open when
 * the duration ends are not logged.
 *
 * <p>Thread-safety: stateless.
 */
public final class H2load {

    /** What to install where h2load is missing. */
    public static final String INSTALL = "apt-get install -y nghttp2-client";

    /** The largest latency a histogram of h2load's log holds (µs). */
    static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(30);

    /** One request of the log: when it started (µs since the epoch), its status (-1: failed), its latency in µs. */
    record LogLine(long startMicros, int status, long micros) {

        /** How the request ended, as the tool counts outcomes. */
        Outcome outcome() {
            return status < 0 ? Outcome.OTHER_FAILURE : Outcome.ofStatus(status);
        }

        /** The line's fields, or empty for a malformed line (one cut short when h2load was killed). */
        static Optional<LogLine> parse(String line) {
            String[] columns = line.split("\t");
            if (columns.length < 3) {
                return Optional.empty();
            }
            try {
                return Optional.of(new LogLine(Long.parseLong(columns[0].trim()), Integer.parseInt(columns[1].trim()),
                        Math.min(HIGHEST_MICROS, Math.max(0, Long.parseLong(columns[2].trim())))));
            } catch (NumberFormatException malformed) {
                return Optional.empty();
            }
        }
    }

    private H2load() {
    }

    /** h2load's path when it is on PATH. */
    public static Optional<Path> onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(File.pathSeparator)).map(folder -> Path.of(folder, "h2load"))
                .filter(Files::isExecutable).findFirst();
    }

    /** Its version line ("h2load nghttp2/1.52.0"), or "h2load" when it does not say. */
    public static String version(Path h2load) {
        try {
            Process process = new ProcessBuilder(h2load.toString(), "--version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            process.waitFor(5, TimeUnit.SECONDS);
            return output.isEmpty() ? "h2load" : output.lines().findFirst().orElse("h2load");
        } catch (IOException e) {
            return "h2load";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "h2load";
        }
    }

    /**
     * The command line: {@code connections} connections (one thread, one request at a time each) sharing
     * {@code ratePerSecond} for {@code length}, every request logged to {@code logFile}.
     */
    static List<String> command(Path h2load, URI url, Protocol protocol, int ratePerSecond, int connections, Duration length, Path logFile) {
        List<String> command = new ArrayList<>(List.of(h2load.toString(), "-c", Integer.toString(connections), "-t", "1", "-m", "1",
                "--rps", String.format(Locale.ROOT, "%.3f", ratePerSecond / (double) connections),
                "-D", Long.toString(Math.max(1, length.toSeconds())), "--log-file", logFile.toAbsolutePath().toString()));
        if (protocol == Protocol.HTTP1) {
            command.add("--h1");
        }
        command.add(url.toString());
        return command;
    }

    /** The connections that carry {@code ratePerSecond} at about {@code perConnection} each: at least 1, at most {@code most}. */
    public static int connectionsFor(int ratePerSecond, int perConnection, int most) {
        return Math.max(1, Math.min(most, (int) Math.ceil(ratePerSecond / (double) perConnection)));
    }
}
