package com.example.threading.live;

import java.util.List;
import java.util.Objects;

/**
 * One chart of the live page: a title, the unit of its y axis, one sentence saying what it shows, and its lines.
 *
 * @param title  e.g. {@code "Live threads per pool"}
 * @param unit   the y axis's unit, e.g. {@code "threads"} or {@code "per second"}
 * @param about  one sentence for a reader who has never seen the code
 * @param series the lines, in legend order
 */
public record LiveChart(String title, String unit, String about, List<LiveSeries> series) {

    /** Checks that every part is given and copies the lines. */
    public LiveChart {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(about, "about");
        series = List.copyOf(series);
        if (series.isEmpty()) {
            throw new IllegalArgumentException("a chart needs at least one line: " + title);
        }
    }
}
