/**
 * {@code GET /work/{pattern}?ms=<0..60000>}: the same simulated wait (the calling thread sleeps, as it would on a
 * slow downstream) spent five ways, so that two patterns can be compared under the same load. Absent {@code ms}
 * waits a random 0..2000 ms; anything else outside the range is a JSON 400.
 * <ul>
 *   <li>{@code blocking}: the Jetty worker that took the request sleeps. Fine while concurrent waits stay well
 *       below {@code server.maxThreads}; beyond it requests queue in Jetty's unbounded job queue.</li>
 *   <li>{@code thread-per-request}: the anti-pattern, a new platform thread per request
 *       ({@code work-thread-per-request-<n>}), never reused; only a safety cap on live threads
 *       ({@code threadPerRequest.maxThreads}, a {@code PlaceLimitedExecutor}) keeps a burst from exhausting the JVM.</li>
 *   <li>{@code cached}: the {@code AsyncResponse} is resumed from a managed cached pool ({@code work-cached-<n>}):
 *       a thread per concurrent wait, reused when idle; {@code maxThreads} is only a safety cap.</li>
 *   <li>{@code bounded}: a fixed pool ({@code work-bounded-<n>}) behind {@link com.example.threading.work.PlaceLimitedExecutor}:
 *       exactly {@code threads + queueCapacity} requests are admitted, the rest get 503 with {@code Retry-After}
 *       at once.</li>
 *   <li>{@code virtual}: a new virtual thread per task ({@code work-virtual-<n>}) on JDK 21+; on JDK 17 to 20 the
 *       service starts anyway and this endpoint answers 501 with the reason.</li>
 * </ul>
 *
 * <p>Threads: a Jetty worker ({@code dw-*}) parses the request. For {@code blocking} it also waits. For the four
 * async patterns it suspends the {@code AsyncResponse}, hands the wait to the pattern's executor
 * ({@link com.example.threading.work.AsyncWork}) and returns at once; the executor's thread sleeps and resumes
 * the response, or Jersey's timeout thread answers 503 after {@code work.asyncTimeout} and interrupts the
 * sleep, or the submitting worker answers 503 when the executor refuses; {@code AsyncResponse.resume} lets one
 * of them win. Jetty writes the answer; {@link com.example.threading.work.ResponseTimingFilter} stops the
 * pattern's timer when the async request completes.
 *
 * <p>Entry class: {@link com.example.threading.work.WorkBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new WorkBundle<>(MyConfiguration::getWork))}); configuration:
 * {@link com.example.threading.work.WorkConfiguration} (section {@code work}); metrics {@code work.<pattern>.*};
 * health check {@code work-bounded-pool}. The guide (contract, figures) is {@code docs/work.md}.
 *
 * <p>To copy: the package plus {@link com.example.threading.support} (servlet helpers that depend on nothing of this
 * project), and one {@code addBundle} line; the two need Dropwizard core, nothing else. The bundle maps
 * {@link com.example.threading.support.CompleteAsyncOnFailedWrite} on {@code /work/*}, which completes a request whose
 * resumed answer could not be written: Jersey 3.1 on Jetty 12.1 otherwise leaves such a request in flight until the
 * server stops ({@code WorkLiftOutTest} shows both). To copy one pattern only: its resource, {@code AsyncWork},
 * {@code WaitTime}, {@code WorkResult} and {@code SimulatedWork} (or your own work in its place), plus
 * {@code PlaceLimitedExecutor} for {@code bounded}, {@code VirtualThreads} for {@code virtual},
 * {@code ThreadPerRequestExecutor} for the anti-pattern, the lines of {@code WorkBundle} that build its executor and
 * map the filter, and the {@code support} package.
 */
package com.example.threading.work;
