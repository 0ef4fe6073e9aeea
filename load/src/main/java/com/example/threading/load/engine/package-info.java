/**
 * Measuring: the load itself and what it records, below the report and above the service. Four rooms, by role:
 * <ul>
 *   <li>{@code engine.recording}: what a phase records and ends in, every request's outcome and HdrHistogram latency
 *       from the intended send time, one-second intervals, the result records, the interval logs read back, the
 *       progress bar. Depends on nothing else of the engine.</li>
 *   <li>{@code engine.http}: the HTTP drivers: a fixed-rate phase from Jetty's load generator (open model) or from an
 *       h2load process, h2load in a closed loop with the server's CPU over its stretch, one-off requests, the
 *       independent client a latency is checked against. Depends on {@code recording}.</li>
 *   <li>{@code engine.jvm}: what explains a tail: the JVMs' GC logs, heap and threads once a second, a forced full
 *       collection, async-profiler, the service's own metrics off its admin port. Depends on {@code recording} and
 *       {@code http}.</li>
 *   <li>{@code engine.traffic}: the traffic shapes of the experiments: closed-loop long polls, publishers and
 *       followers on several instances with a delivery ledger, chat rooms on topics, the topology's traffic and the
 *       balancer's view. Depends on {@code recording} and {@code http}.</li>
 * </ul>
 *
 * <p>May depend on: {@code service} (the service's URIs and CPU). Never on {@code report} or the scenarios: the
 * engine hands back records and knows nothing of tables, plots or files other than the raw .hlog, GC logs and
 * flame graphs it writes.
 */
package com.example.threading.load.engine;
