/**
 * {@code soak}: the service under a steady mixed load for minutes (default 10) — every {@code /work} pattern and
 * {@code /fanout} at a fixed total rate (open model), plus long-poll clients on {@code /events} and
 * {@code /events/blocking} — and, once a minute, what would show a leak: the live heap (heap used right after a
 * full collection the tool forces through the admin task {@code POST /tasks/gc}: under G1 the heap after a young
 * collection still holds old garbage until the next concurrent marking cycle), threads, open files, the parked
 * and waiting polls; a verdict per series (flat or growing) with the plots.
 *
 * <p>Threads: the scenario's thread drives the senders and then sums up; the long-poll clients run on a two-thread
 * pool, the forced collections on the engine's {@code ForcedGc} thread, the samples on the {@code JvmWatch} thread.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.soak.SoakScenario} (options, the mix, the measuring).
 * Measured into {@code MinuteSample} records (built from the service's {@code JvmWatch} samples, the
 * {@code ForcedGc} readings and the GC log); {@code Growth} decides flat or growing; {@code SoakView} builds the
 * tables and plots; {@code ForcedGcs} says what the forced collections cost.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.soak;
