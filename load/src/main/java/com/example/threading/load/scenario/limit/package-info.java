/**
 * {@code limit}, the limit test: offered rates stepped past capacity (open model), to see how the service
 * degrades: fast 503s, or a queue without bound (latency, then timeouts), or resets.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.limit.LimitScenario} (options, measuring). Measured into
 * {@code LimitStep} records; {@code LimitView} builds the tables and plots from them.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.limit;
