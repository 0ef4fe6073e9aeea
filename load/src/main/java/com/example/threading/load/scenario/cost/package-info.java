/**
 * {@code cost}: the server's CPU per request, endpoint by endpoint, in one run on one service: admin {@code /ping} (the
 * baseline: Jetty and a plain servlet), each {@code /work/<pattern>?ms=0}, a publish ({@code POST /events}), ten
 * publishes in one {@code POST /events/batch} and a long-poll answer (many parked polls answered by events), each as a
 * ratio to {@code /ping}'s figure. h2load drives
 * each endpoint in a closed loop, a warm-up then a measured stretch; the server's {@code utime + stime} over exactly that
 * stretch, divided by the 2xx answers h2load counted in it. With {@code --profile}, a CPU and an allocation flame graph
 * per endpoint, in extra stretches after every measured one.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.cost.CostScenario} (options, measuring: it drives the engine's
 * {@code H2loadStretch} and {@code EventPublisher}). {@code Endpoint} says what is loaded, {@code Measurement} what one
 * endpoint's stretch measured, {@code FlameGraphs} what its profile stretches wrote; {@code CostView} builds the table,
 * notes and results.json data ({@code EndpointCost} rows) from them.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.cost;
