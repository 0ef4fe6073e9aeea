/**
 * Presenting: a run's folder and the generic views, below the scenarios and above the engine.
 *
 * <p>Holds: {@link com.example.threading.load.report.Report} (report.md, results.json and the files next to
 * them), {@link com.example.threading.load.report.PhaseViews} (the standard table and plots of any set of
 * load phases, built from {@code engine.PhaseResult} records), {@link com.example.threading.load.report.JvmViews}
 * (every run's GC pauses, heap and threads of the services and the tool), {@link com.example.threading.load.report.Plots}
 * (XChart PNGs), {@link com.example.threading.load.report.HistogramLogs} (a whole-run histogram as an .hlog),
 * {@link com.example.threading.load.report.Durations} (durations as people type them and as
 * reports show them) and {@code Machine} (the machine and JDK a report came from).
 *
 * <p>May depend on: {@code engine} (the result records it presents) and {@code service} (core count). Never on
 * the scenarios: a scenario's own views live with the scenario and build on these.
 */
package com.example.threading.load.report;
