/**
 * {@code topics}: the long-poll's topics under CometD's benchmark shape. Clients are members of several rooms (one
 * topic each) and hold one poll of all their rooms; messages are published at a fixed rate round-robin over the rooms;
 * each client's per-room ledgers count lost, duplicated and out-of-order messages (goal: 0), and publish → read
 * latency, deliveries per second, server and tool CPU and the servers' GC are measured, in-process and on Redis.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.topics.TopicsScenario} (options; starts the instances, and
 * Redis or takes {@code --redis-uri}; drives the engine's {@code TopicsTraffic}). {@code TopicsView} builds the tables,
 * plot and results.json data.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.topics;
