/**
 * {@code sse}: Server-Sent Events beside the long-poll on one service. One event to N streams against N parked long-polls
 * over h2c, round by round (the server's batch time from /prometheus and the client's publish → last receipt); the
 * server's heap per idle stream after forced full GCs, over h2c and HTTP/1.1; chat rooms over streams with each reader's
 * deliveries checked for loss, duplicates and order, then with one stalled reader the server must shed.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.sse.SseScenario} (options, the service's settings, the parts).
 * {@code SseReaders} holds the streams (OkHttp's EventSource), {@code ParkedPolls} the h2c long-polls (Jetty's client),
 * {@code BatchRounds} and {@code RoomTraffic} measure (the server's side read with the engine's {@code ServerMetrics}), {@code RoomChecks}
 * checks the ledgers, {@code SseView} builds the tables, plot and results.json data.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.sse;
