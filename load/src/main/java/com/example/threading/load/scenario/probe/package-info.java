/**
 * {@code probe}, Jetty's performance-test method: loaders at a fixed rate keep the server busy but not
 * saturated, a low-rate probe records the latency a user would see; warm-up, optional rate search towards a
 * server CPU target, then recording; over HTTP/1.1 and h2c, each on a fresh service.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.probe.ProbeScenario} (options, measuring, the rate
 * search). Measured into {@code ProtocolRun} and {@code SearchStep} records; {@code ProbeView} builds the
 * notes, tables and plots from them as each step of the run ends.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.probe;
