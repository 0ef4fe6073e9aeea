/**
 * The experiments, one picocli command each, in one sub-package per experiment ({@code wave}, {@code longpoll},
 * {@code probe}, {@code limit}); this package holds what they share.
 *
 * <p>Holds: {@link com.example.threading.load.scenario.ScenarioCommand} (the life of a run: report folder,
 * deadline, watchdog, writing the report), {@link com.example.threading.load.scenario.ScenarioOptions} (the
 * options every scenario accepts, one picocli mixin), {@link com.example.threading.load.scenario.Deadline} and
 * {@code Watchdog} (the hard time limit).
 *
 * <p>Each experiment's package holds its command (options, and the measuring: it drives the engine and
 * collects result records), those records, and its views (which build the scenario's tables, plots and
 * results.json data from the records, on top of {@code report}).
 *
 * <p>May depend on: {@code report}, {@code engine}, {@code service}. An experiment's package may use this
 * package; it never uses another experiment's package, and this package never uses one (only the tool at the
 * top lists them).
 */
package com.example.threading.load.scenario;
