package com.example.threading.load.report;

import com.example.threading.load.engine.recording.PhaseResult;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's folder: report.md (tables, plots, notes, machine, JDK and configuration), results.json (the same
 * numbers for machines), the PNG plots and raw .hlog files written next to them.
 *
 * <p>Not thread-safe: confined to the thread that created it (the scenario's thread), which fills it and writes it
 * once; every method checks that it is called there and throws IllegalStateException otherwise (a client callback that
 * wants to note something must hand it to the scenario's thread).
 */
public final class Report {

    /** A picture and the sentence under it. */
    record Plot(String file, String caption) {
    }

    private final String scenario;
    private final Path directory;
    private final String command;
    private final Instant startedAt = Instant.now();
    private final Map<String, Object> configuration = new LinkedHashMap<>();
    private final Map<String, Object> environment = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final List<Table> tables = new ArrayList<>();
    private final List<Plot> plots = new ArrayList<>();
    private final List<PhaseResult> phases = new ArrayList<>();
    private final Map<String, Object> data = new LinkedHashMap<>();
    private final Thread owner = Thread.currentThread();
    private String summary = "";

    /** An empty report of {@code scenario} run by {@code command}, to be written into {@code directory}. */
    public Report(String scenario, Path directory, String command) {
        this.scenario = scenario;
        this.directory = directory;
        this.command = command;
        environment.putAll(Machine.describe());
    }

    /** The run's folder (plots and logs go here). */
    public Path directory() {
        return directory;
    }

    /** A configuration value shown in the report. */
    public Report configure(String key, Object value) {
        confined();
        configuration.put(key, value instanceof Duration duration ? Durations.format(duration) : value);
        return this;
    }

    /** A fact about where it ran. */
    public Report environment(String key, Object value) {
        confined();
        environment.put(key, value);
        return this;
    }

    /** A sentence the reader must see (skipped parts, unavailable patterns, caveats). */
    public Report note(String note) {
        confined();
        notes.add(note);
        return this;
    }

    /** One paragraph above the tables. */
    public Report summary(String text) {
        confined();
        summary = text;
        return this;
    }

    /** A table, in report.md and results.json in the order added. */
    public Report table(Table table) {
        confined();
        tables.add(table);
        return this;
    }

    /** A PNG already written into {@link #directory()}, with the sentence under it. */
    public Report plot(String file, String caption) {
        confined();
        plots.add(new Plot(file, caption));
        return this;
    }

    /** A load phase: its numbers go to results.json, its .hlog is listed under "Raw data". */
    public Report phase(PhaseResult phase) {
        confined();
        phases.add(phase);
        return this;
    }

    /** Scenario-specific numbers for results.json. */
    public Report data(String key, Object value) {
        confined();
        data.put(key, value);
        return this;
    }

    /** The notes so far. */
    public List<String> notes() {
        confined();
        return List.copyOf(notes);
    }

    /** Writes report.md and results.json and returns the path of report.md. */
    public Path write() throws IOException {
        confined();
        Files.createDirectories(directory);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", scenario);
        json.put("command", command);
        json.put("startedAt", startedAt.toString());
        json.put("finishedAt", Instant.now().toString());
        json.put("environment", environment);
        json.put("configuration", configuration);
        json.put("notes", notes);
        json.put("tables", tables);
        json.put("phases", phases);
        json.put("data", data);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(directory.resolve("results.json").toFile(), json);

        StringBuilder md = new StringBuilder();
        md.append("# ").append(scenario).append(" — ").append(startedAt).append("\n\n");
        md.append("`").append(command).append("`\n\n");
        if (!summary.isEmpty()) {
            md.append(summary).append("\n\n");
        }
        if (!notes.isEmpty()) {
            md.append("## Notes\n\n");
            notes.forEach(note -> md.append("- ").append(note).append('\n'));
            md.append('\n');
        }
        for (Table table : tables) {
            md.append("## ").append(table.title()).append("\n\n");
            md.append(table.markdown()).append('\n');
        }
        if (!plots.isEmpty()) {
            md.append("## Plots\n\n");
            plots.forEach(plot -> md.append("![").append(plot.caption()).append("](").append(plot.file()).append(")\n\n")
                    .append("*").append(plot.caption()).append("*\n\n"));
        }
        if (!phases.isEmpty()) {
            md.append("## Raw data\n\n");
            md.append("Latency is recorded in microseconds into HdrHistogram interval logs, one per phase "
                    + "(read them with HdrHistogram's HistogramLogProcessor): ");
            md.append(String.join(", ", phases.stream().map(phase -> "`" + phase.histogramLog() + "`").toList()));
            md.append(". Every number above is also in `results.json`.\n\n");
        }
        md.append("## Configuration\n\n");
        md.append(keyValues(configuration)).append('\n');
        md.append("## Machine and JDK\n\n");
        md.append(keyValues(environment));
        Path file = directory.resolve("report.md");
        Files.writeString(file, md.toString());
        return file;
    }

    /** The tables so far. */
    public List<Table> tables() {
        confined();
        return List.copyOf(tables);
    }

    private void confined() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("a Report is confined to the thread that created it (" + owner.getName()
                    + "), not " + Thread.currentThread().getName());
        }
    }

    private static String keyValues(Map<String, Object> values) {
        StringBuilder md = new StringBuilder("| key | value |\n|---|---|\n");
        values.forEach((key, value) -> md.append("| ").append(key).append(" | ").append(String.valueOf(value).replace("|", "\\|")).append(" |\n"));
        return md.toString();
    }

    /** A number for a table: up to one decimal, "–" for NaN. */
    public static String num(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    /** A latency or rate with two decimals below 10 (so sub-millisecond values stay readable). */
    public static String ms(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return String.format(Locale.ROOT, value < 10 ? "%.2f" : "%.0f", value);
    }
}
