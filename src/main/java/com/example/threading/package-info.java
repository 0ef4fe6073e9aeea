/**
 * A Dropwizard service that shows, side by side, the ways a server can spend a thread on a request that waits
 * (or not spend one at all), one package per pattern, wired in one place.
 *
 * <p>Entry class: {@link com.example.threading.ThreadingApplication} ({@code java -jar
 * target/threading-reference.jar server config.yml}). Its {@code run} hands each pattern its own section of
 * {@link com.example.threading.ThreadingConfiguration} and calls that pattern's single entry class:
 * <ul>
 *   <li>{@link com.example.threading.work} ({@code /work/{pattern}}): the same wait spent five ways: on the
 *       Jetty worker, a new thread per request, a cached pool, a bounded pool that refuses the excess, a
 *       virtual thread;</li>
 *   <li>{@link com.example.threading.longpoll} ({@code /events}): parked {@code AsyncContext}s answered in one
 *       batch per event, and a blocking twin for comparison;</li>
 *   <li>{@link com.example.threading.client} ({@code /fanout}): a Jersey client whose concurrent calls run on
 *       a managed pool, next to the ForkJoin common-pool pitfall;</li>
 *   <li>{@link com.example.threading.jetty}: Jetty's execution strategy ("eat what you kill") made visible and
 *       switchable, and a health check on the application thread pool;</li>
 *   <li>{@link com.example.threading.servlet} and {@link com.example.threading.metrics}: infrastructure every
 *       pattern may use (completing async requests whose write failed; a Prometheus endpoint).</li>
 * </ul>
 *
 * <p>No pattern package imports another. Where two meet, the wiring is here: the write-failure filter is
 * mapped on the paths of the Jersey endpoints that resume an {@code AsyncResponse}, and {@code /fanout}
 * calls this service's own {@code /work/cached} unless configured otherwise.
 *
 * <p>Threads: Dropwizard's start-up thread runs {@code initialize} and {@code run}, which only build and
 * register; Jetty's application pool ({@code dw-*}) runs requests, the admin connector has a pool of its own
 * (so {@code /healthcheck} and {@code /metrics} answer while the application pool is full), and each pattern
 * adds the managed threads its package documentation names. To copy a pattern, copy its package and call its
 * entry class from your own {@code Application.run}; each package documentation says what else it needs.
 */
package com.example.threading;
