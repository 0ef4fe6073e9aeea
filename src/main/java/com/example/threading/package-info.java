/**
 * A Dropwizard service that shows, side by side, the ways a server can spend a thread on a request that waits
 * (or not spend one at all): one package per pattern, each a Dropwizard bundle, added in one place.
 *
 * <p>Entry class: {@link com.example.threading.ThreadingApplication} ({@code java -jar
 * target/threading-reference.jar server config.yml}). Its {@code initialize} adds one bundle per pattern, each given
 * its own section of {@link com.example.threading.ThreadingConfiguration}:
 * <ul>
 *   <li>{@link com.example.threading.work} ({@code /work/{pattern}}): the same wait spent five ways: on the
 *       Jetty worker, a new thread per request, a cached pool, a bounded pool that refuses the excess, a
 *       virtual thread;</li>
 *   <li>{@link com.example.threading.events} ({@code /events}): parked {@code AsyncContext}s answered in one
 *       batch per event, and a blocking twin for comparison, Server-Sent Events and publishing on the same hub, one
 *       package per role; {@link com.example.threading.events.stream.redis} puts its event stream on Redis for several
 *       instances;</li>
 *   <li>{@link com.example.threading.client} ({@code /fanout}): a Jersey client whose concurrent calls run on
 *       a managed pool, next to the ForkJoin common-pool pitfall;</li>
 *   <li>{@link com.example.threading.jetty}: Jetty's execution strategy ("eat what you kill") made visible and
 *       switchable, and a health check on the application thread pool; {@link com.example.threading.jetty.virtual}
 *       runs every request on a virtual thread with a bound of its own;</li>
 *   <li>{@link com.example.threading.admission}: overload answered with fast 503s in front of the application;</li>
 *   <li>{@link com.example.threading.context}: the request's id, trace and caller carried by every thread hop of the
 *       other patterns, in the MDC of every log line;</li>
 *   <li>{@link com.example.threading.errors} and {@link com.example.threading.metrics}: infrastructure of this service
 *       (one JSON error body everywhere; a Prometheus endpoint), which no pattern needs;</li>
 *   <li>{@link com.example.threading.support}: small servlet helpers any pattern may use, depending on nothing of this
 *       project; a pattern that uses it ({@code work}, {@code client}) is copied with it.</li>
 * </ul>
 *
 * <p>No pattern package uses another, nor the infrastructure; a plug-in builds only on what it extends, and any of them
 * may use {@code support} ({@code PatternPackagesTest}, {@code CompileAloneTest}). Where two meet, the wiring is here: admission is told
 * which paths not to count (the long-polls) and which thread bound its defaults derive from; and {@code /fanout}
 * calls this service's own {@code /work/cached} unless {@code client.downstreamUrl} says otherwise.
 *
 * <p>Threads: Dropwizard's start-up thread runs {@code initialize} and the bundles, which only build and register;
 * Jetty's application pool ({@code dw-*}) runs requests, the admin connector has a pool of its own (so
 * {@code /healthcheck} and {@code /metrics} answer while the application pool is full), and each pattern adds the
 * managed threads its package documentation names. To copy a pattern, copy its package (plus {@code support} where its
 * package documentation says so) and add its bundle to your own {@code Application.initialize}: each package
 * documentation says what else it needs.
 */
package com.example.threading;
