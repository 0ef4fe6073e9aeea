/**
 * Jetty's execution strategy ("eat what you kill", {@code AdaptiveExecutionStrategy}) made visible and
 * switchable, and a health check on the application thread pool.
 *
 * <p>Each connector's selector threads produce tasks (a readable connection becomes "read and handle this
 * request"); the strategy runs a task on the producing thread (PC for non-blocking tasks; EPC, eat what you
 * kill, for blocking ones once a reserved thread has taken over producing) or hands it to the pool (PEC).
 * {@link com.example.threading.jetty.ExecutionStrategyMode} picks between Jetty's default ({@code adaptive})
 * and {@code produce-execute-consume} (no reserved threads, so every blocking task is handed to the pool), and
 * gauges {@code jetty.connector.<name>.strategy.*} count what each sub-strategy ran.
 *
 * <p>Threads: the start-up thread sets the application pool's reserved threads before the pool starts, and
 * registers the gauges once the server has started; selector and pool threads do the work counted; metric
 * scrapes and health checks run on the admin connector's threads and only read Jetty's thread-safe counters.
 *
 * <p>Entry class: {@link com.example.threading.jetty.JettyBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new JettyBundle<>(MyConfiguration::getJetty))}) that registers
 * {@link com.example.threading.jetty.ExecutionStrategies} and
 * {@link com.example.threading.jetty.JettyThreadPoolHealthCheck} (health check {@code jetty-thread-pool});
 * configuration {@link com.example.threading.jetty.JettyConfiguration} (section {@code jetty}). HTTP/2 clear
 * text is Dropwizard's {@code h2c} connector type (dropwizard-http2), set in config.yml. The guide (strategy,
 * switch, benchmark) is {@code docs/jetty.md}.
 *
 * <p>To copy: the whole package and one {@code addBundle} line; it needs Dropwizard core (Jetty 12.1) and nothing
 * else.
 */
package com.example.threading.jetty;
