/**
 * {@code longpoll}, the async-servlet experiment: C clients × I iterations of long polls against the
 * AsyncContext endpoint and its blocking twin, each on a fresh service, against the best possible throughput
 * C ÷ tick.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.longpoll.LongPollScenario} (options, measuring with the
 * engine's closed-loop {@code PollingClients}, a connection per client; beyond 9,000 clients, or with {@code --processes}, in
 * child JVMs, {@code PollingProcess}, split by {@code ClientShares}). Measured into {@code EndpointPolls} records; {@code LongPollView}
 * builds the tables, plots and results.json data from them.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.longpoll;
