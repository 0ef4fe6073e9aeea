/**
 * {@code cluster}: the long-poll on several instances sharing one Redis Stream. Publishers POST events
 * to a random instance at a fixed rate; followers long-poll a random instance per poll, following {@code lastId};
 * each follower's ledger counts lost, duplicated and out-of-order events (goal: 0), and publish → delivery latency
 * is measured on the shared stream and, in the same run, on one in-process instance for comparison. With
 * {@code --kill-one}, one instance is killed with SIGKILL half-way and its clients move on.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.cluster.ClusterScenario} (options; starts Redis or takes
 * {@code --redis-uri}, and the instances; drives the engine's {@code ClusterTraffic}). Measured into
 * {@code ClusterTraffic.Result} records; {@code ClusterView} builds the table, plot and results.json data.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.cluster;
