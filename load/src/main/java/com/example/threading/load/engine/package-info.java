/**
 * Measuring: the load itself and what it records, below the report and above the target.
 *
 * <p>Holds: {@link com.example.threading.load.engine.Load} (one fixed-rate phase from one client):
 * {@link com.example.threading.load.engine.GeneratedLoad} (open-model phases from Jetty's load
 * generator, paced by a {@link com.example.threading.load.engine.Schedule} so latency is measured from the
 * intended send time) and {@link com.example.threading.load.engine.H2loadLoad} (an h2load process, see
 * {@link com.example.threading.load.engine.H2load}, its per-request log recorded alike; the interval logs read back by
 * {@link com.example.threading.load.engine.HistogramLogs}), {@link com.example.threading.load.engine.PollingClients} (closed-loop long-poll
 * clients), {@link com.example.threading.load.engine.TopicsTraffic} (chat rooms on the long-poll's topics, a ledger per
 * client and room), {@link com.example.threading.load.engine.H2loadStretch} (an endpoint under h2load in a closed loop,
 * the server's CPU read over exactly the stretch whose requests h2load counts),
 * {@link com.example.threading.load.engine.EventPublisher} (events published at a fixed rate beside a load),
 * {@link com.example.threading.load.engine.SimpleHttp} (one-off requests, admin tasks, events),
 * {@link com.example.threading.load.engine.PhaseRecorder} (every request's
 * {@link com.example.threading.load.engine.Outcome}, HdrHistogram latencies and one-second intervals), the
 * result records a phase ends in ({@link com.example.threading.load.engine.PhaseResult},
 * {@link com.example.threading.load.engine.IntervalSample},
 * {@link com.example.threading.load.engine.LatencySummary}), the terminal
 * {@link com.example.threading.load.engine.Progress} bar, and what explains a tail: the JVMs' GC logs
 * ({@link com.example.threading.load.engine.GcLog}, {@link com.example.threading.load.engine.ToolGcLog},
 * {@link com.example.threading.load.engine.GcPauses}), their heap and threads once a second
 * ({@link com.example.threading.load.engine.JvmWatch}, {@link com.example.threading.load.engine.JvmSample}), the live
 * heap right after a full collection forced through the admin task {@code /tasks/gc}
 * ({@link com.example.threading.load.engine.ForcedGc}), and
 * async-profiler attached to the service ({@link com.example.threading.load.engine.Profiler}), and an independent
 * client to check the tool's figures against ({@link com.example.threading.load.engine.CrossCheck}, h2load).
 *
 * <p>May depend on: {@code target} (the service's URIs and CPU). Never on {@code report} or the scenarios: the
 * engine hands back records and knows nothing of tables, plots or files other than the raw .hlog, GC logs and
 * flame graphs it writes.
 */
package com.example.threading.load.engine;
