package com.example.threading.load.report;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the durations people type ({@code 500ms}, {@code 2s}, {@code 3m}, {@code 1h}, a bare {@code 0}) and
 * ISO-8601 ({@code PT2S}), and formats them as reports show them.
 */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    private Durations() {
    }

    /** The duration of {@code text}, or IllegalArgumentException saying what is accepted (also for values too large). */
    public static Duration parse(String text) {
        Matcher matcher = SHORT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (text.trim().equals("0")) {
            // Zero needs no unit ("--full-gc-every 0" = off).
            return Duration.ZERO;
        }
        try {
            if (matcher.matches()) {
                long amount = Long.parseLong(matcher.group(1));
                switch (matcher.group(2)) {
                    case "ms":
                        return Duration.ofMillis(amount);
                    case "s":
                        return Duration.ofSeconds(amount);
                    case "m":
                        return Duration.ofMinutes(amount);
                    default:
                        return Duration.ofHours(amount);
                }
            }
            return Duration.parse(text.trim());
        } catch (ArithmeticException | DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: use e.g. 500ms, 10s, 3m or PT10S");
        }
    }

    /** The shortest of {@code 500ms}, {@code 10s}: how durations are shown in reports. */
    public static String format(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }
}
