/**
 * {@code soak}: the service under a steady mixed load for minutes (default 10) — every {@code /work} pattern and
 * {@code /fanout} at a fixed total rate (open model), plus long-poll clients on {@code /events} and
 * {@code /events/blocking} — and, once a minute, what would show a leak: heap after GC, threads, open files, the
 * parked and waiting polls; a verdict per series (flat or growing) with the plots.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.soak.SoakScenario} (options, the mix, the measuring).
 * Measured into {@code MinuteSample} records (built from the service's {@code JvmWatch} samples and GC log);
 * {@code Growth} decides flat or growing; {@code SoakView} builds the tables and plots.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code target}; no other experiment.
 */
package com.example.threading.load.scenario.soak;
