package com.example.threading.load.engine.http;

import com.example.threading.load.engine.recording.Outcome;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * <p>Closed loop ({@link #closedLoop}, for {@link H2loadStretch}): each connection sends its next request as soon as the
 * last is answered, with {@code --warm-up-time} before the {@code -D} duration; h2load says on its output when the
 * measured duration starts and ends, and its final counts ({@link Summary}) are those of the measured duration alone.
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

    /** The line h2load prints when its measured duration (after the warm-up) begins. */
    static final String MEASURED_START = "Main benchmark duration is started";

    /** The line h2load prints when its measured duration ends (it then stops its clients). */
    static final String MEASURED_END = "Main benchmark duration is over";

    private static final Pattern REQUESTS = Pattern.compile("requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, "
            + "(\\d+) failed, (\\d+) errored, (\\d+) timeout");
    private static final Pattern STATUS = Pattern.compile("status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx");

    /**
     * h2load's final counts: requests done, those it calls failed (an answer not 2xx/3xx, or a stream that broke), errored
     * (no answer) and timed out, and the answers by status class. With {@code -D} they cover the measured duration only.
     */
    public record Summary(long done, long failed, long errored, long timedOut, long status2xx, long status3xx, long status4xx, long status5xx) {

        /** Answers that were not 2xx. */
        public long non2xx() {
            return status3xx + status4xx + status5xx;
        }

        /** Whether every request of the measured duration was answered 2xx. */
        public boolean all2xx() {
            return non2xx() == 0 && failed == 0 && errored == 0 && timedOut == 0;
        }

        /** What went wrong, e.g. "12 non-2xx (4xx 0, 5xx 12), 0 failed, 0 errored, 0 timed out"; empty when all were 2xx. */
        public String problems() {
            return all2xx() ? "" : non2xx() + " non-2xx (3xx " + status3xx + ", 4xx " + status4xx + ", 5xx " + status5xx + "), "
                    + failed + " failed, " + errored + " errored, " + timedOut + " timed out";
        }

        /** The counts of h2load's output, or empty when it has none (h2load was killed before it printed them). */
        static Optional<Summary> parse(String output) {
            Matcher requests = REQUESTS.matcher(output);
            Matcher status = STATUS.matcher(output);
            if (!requests.find() || !status.find()) {
                return Optional.empty();
            }
            return Optional.of(new Summary(Long.parseLong(requests.group(3)), Long.parseLong(requests.group(5)),
                    Long.parseLong(requests.group(6)), Long.parseLong(requests.group(7)), Long.parseLong(status.group(1)),
                    Long.parseLong(status.group(2)), Long.parseLong(status.group(3)), Long.parseLong(status.group(4))));
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

    /**
     * The closed-loop command line: HTTP/1.1, {@code connections} connections on one thread, one request at a time each,
     * {@code warmup} (none when zero) then {@code measured}; with a {@code body}, a POST of that file with {@code headers}.
     */
    static List<String> closedLoop(Path h2load, URI url, int connections, Duration warmup, Duration measured, Optional<Path> body,
                                   List<String> headers) {
        List<String> command = new ArrayList<>(List.of(h2load.toString(), "--h1", "-c", Integer.toString(connections), "-t", "1", "-m", "1"));
        if (!warmup.isZero()) {
            command.add("--warm-up-time=" + Math.max(1, warmup.toMillis()) + "ms");
        }
        command.addAll(List.of("-D", Math.max(1, measured.toMillis()) + "ms"));
        body.ifPresent(file -> command.addAll(List.of("-d", file.toAbsolutePath().toString())));
        headers.forEach(header -> command.addAll(List.of("-H", header)));
        command.add(url.toString());
        return command;
    }

    /** The connections that carry {@code ratePerSecond} at about {@code perConnection} each: at least 1, at most {@code most}. */
    public static int connectionsFor(int ratePerSecond, int perConnection, int most) {
        return Math.max(1, Math.min(most, (int) Math.ceil(ratePerSecond / (double) perConnection)));
    }
}
