package com.example.threading.load.report;

import com.example.threading.load.engine.PhaseResult;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's folder: report.md (tables, plots, notes, machine, JDK and configuration), results.json (the same
 * numbers for machines), the PNG plots and raw .hlog files written next to them. Not thread-safe: the
 * scenario's main thread fills it and writes it once.
 */
public final class Report {

    /** A Markdown table, also written to results.json. */
    public record Table(String title, List<String> header, List<List<String>> rows) {
    }

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
    private String summary = "";

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
        configuration.put(key, value instanceof java.time.Duration duration ? Durations.format(duration) : value);
        return this;
    }

    /** A fact about where it ran. */
    public Report environment(String key, Object value) {
        environment.put(key, value);
        return this;
    }

    /** A sentence the reader must see (skipped parts, unavailable patterns, caveats). */
    public Report note(String note) {
        notes.add(note);
        return this;
    }

    /** One paragraph above the tables. */
    public Report summary(String text) {
        summary = text;
        return this;
    }

    public Report table(Table table) {
        tables.add(table);
        return this;
    }

    public Report plot(String file, String caption) {
        plots.add(new Plot(file, caption));
        return this;
    }

    public Report phase(PhaseResult phase) {
        phases.add(phase);
        return this;
    }

    /** Scenario-specific numbers for results.json. */
    public Report data(String key, Object value) {
        data.put(key, value);
        return this;
    }

    public List<String> notes() {
        return notes;
    }

    /** Writes report.md and results.json and returns the path of report.md. */
    public Path write() throws IOException {
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
            md.append(markdown(table)).append('\n');
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

    /** The table as Markdown (also printed on the terminal at the end of a run). */
    public static String markdown(Table table) {
        StringBuilder md = new StringBuilder();
        md.append("| ").append(String.join(" | ", table.header())).append(" |\n");
        md.append("|").append("---|".repeat(table.header().size())).append('\n');
        table.rows().forEach(row -> md.append("| ").append(String.join(" | ", row)).append(" |\n"));
        return md.toString();
    }

    public List<Table> tables() {
        return tables;
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
