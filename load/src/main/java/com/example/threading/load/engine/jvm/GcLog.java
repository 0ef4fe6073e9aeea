package com.example.threading.load.engine.jvm;

import com.example.threading.load.engine.recording.LatencySummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a HotSpot unified GC log written with the decorators {@link #DECORATORS} (the service's
 * {@code -Xlog:gc*} and the tool's own, see {@link ToolGcLog}) into the events that explain a tail: every
 * stop-the-world pause (G1, Parallel, Serial: {@code [gc] GC(n) Pause Young ... 24M->3M(256M) 2.345ms}; ZGC and
 * Shenandoah: {@code [gc,phases] GC(n) Y: Pause Mark Start 0.019ms}) and the heap left after each collection.
 *
 * <p>Read the log once its JVM has written it; a line still being written is skipped.
 */
public final class GcLog {

    /** The -Xlog decorators this parser expects: wall-clock time first, so pauses can be placed in a phase. */
    public static final String DECORATORS = "utctime,uptime,level,tags";

    /**
     * One line that matters: a pause (its length, NaN otherwise) and/or the heap after a collection (bytes, -1
     * otherwise); {@code explicit} when the collection was asked for ({@code System.gc()}, e.g. the admin task
     * {@code /tasks/gc}) rather than started by the collector.
     */
    public record Event(Instant at, double pauseMs, long heapAfterBytes, boolean explicit) {

        /** An event of a collection the collector started itself. */
        public Event(Instant at, double pauseMs, long heapAfterBytes) {
            this(at, pauseMs, heapAfterBytes, false);
        }

        /** Whether this line is a stop-the-world pause. */
        public boolean isPause() {
            return !Double.isNaN(pauseMs);
        }
    }

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ", Locale.ROOT);
    private static final Pattern LINE = Pattern.compile("^\\[([^\\]]+)\\]\\[[^\\]]*\\]\\[[^\\]]*\\]\\[([a-z,]+)\\s*\\]\\s+GC\\(\\d+\\)\\s+(.*)$");
    private static final Pattern PAUSE = Pattern.compile("\\bPause\\b.*?(\\d+(?:\\.\\d+)?)ms\\s*$");
    // "18M->7M(388M)" (G1, Parallel, Serial) or "272M(5%)->6M(0%)" (ZGC); the heap after is the second size.
    private static final Pattern HEAP_AFTER = Pattern.compile("\\d+[KMG](?:\\(\\d+%\\))?->(\\d+)([KMG])");

    private GcLog() {
    }

    /** The events of a log file; an absent file has none. */
    public static List<Event> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<Event> events = new ArrayList<>();
        try (Stream<String> lines = Files.lines(file)) {
            lines.forEach(line -> parse(line).ifPresent(events::add));
        }
        return events;
    }

    /** The event on one line, if the line is a pause or a collection's summary with the heap after it. */
    static Optional<Event> parse(String line) {
        Matcher matcher = LINE.matcher(line);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String tags = matcher.group(2);
        String message = matcher.group(3);
        if (!tags.equals("gc") && !tags.equals("gc,phases")) {
            return Optional.empty();
        }
        double pauseMs = Double.NaN;
        Matcher pause = PAUSE.matcher(message);
        if (pause.find()) {
            pauseMs = Double.parseDouble(pause.group(1));
        }
        long heapAfter = -1;
        Matcher heap = HEAP_AFTER.matcher(message);
        if (tags.equals("gc") && heap.find()) {
            heapAfter = Long.parseLong(heap.group(1)) * switch (heap.group(2)) {
                case "K" -> 1L << 10;
                case "M" -> 1L << 20;
                default -> 1L << 30;
            };
        }
        if (Double.isNaN(pauseMs) && heapAfter < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Event(UTC_TIME.parse(matcher.group(1), Instant::from), pauseMs, heapAfter, message.contains("(System.gc())")));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Count, total and longest of the pauses that began in [from, to). */
    public static GcPauses pauses(List<Event> events, Instant from, Instant to) {
        long count = 0;
        double total = 0;
        double max = 0;
        for (Event event : events) {
            if (event.isPause() && !event.at().isBefore(from) && event.at().isBefore(to)) {
                count++;
                total += event.pauseMs();
                max = Math.max(max, event.pauseMs());
            }
        }
        return new GcPauses(count, LatencySummary.round(total), LatencySummary.round(max));
    }
}
