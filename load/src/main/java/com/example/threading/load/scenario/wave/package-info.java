/**
 * {@code wave}, "know thy threadpool": waves of concurrent requests against each /work pattern (a new thread
 * per request, a cached pool, a bounded pool, virtual threads...), timed from the first send to the last
 * answer; then the client side, /fanout by each {@code via}.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.wave.WaveScenario} (options, measuring). Measured into
 * {@code PatternWaves} and {@code FanoutCalls} records; {@code WaveView} and {@code FanoutView} build the
 * tables, plots and results.json data from them. {@code Fanout} is the fan-out part: its own options (a picocli
 * mixin of the command) and measuring.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.wave;
