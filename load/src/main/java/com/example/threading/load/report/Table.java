package com.example.threading.load.report;

import java.util.List;

/**
 * A table of a report: written to report.md as Markdown, to results.json as {@code {title, header, rows}}, and
 * printed on the terminal at the end of a run. Cells are text, already formatted (see {@link Report#num} and
 * {@link Report#ms}).
 */
public record Table(String title, List<String> header, List<List<String>> rows) {

    /** A table; every row should have as many cells as the header. */
    public Table {
        header = List.copyOf(header);
        rows = rows.stream().<List<String>>map(List::copyOf).toList();
    }

    /** The table as Markdown: header, separator, one line per row. */
    public String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("| ").append(String.join(" | ", header)).append(" |\n");
        md.append("|").append("---|".repeat(header.size())).append('\n');
        rows.forEach(row -> md.append("| ").append(String.join(" | ", row)).append(" |\n"));
        return md.toString();
    }
}
