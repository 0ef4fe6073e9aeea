/**
 * Server-level admission control: overload is answered with fast {@code 503}s instead of an unbounded queue.
 *
 * <p>Dropwizard 5 has no {@code maxQueuedRequests}: requests beyond Jetty's pool wait in its unbounded job queue,
 * so overload turns into latency and time-outs. Here Jetty 12's {@code QoSHandler}, inserted into the application
 * context's handler chain, lets at most {@code maxRequests} requests run at once, suspends up to {@code maxQueued}
 * more (holding no thread) for at most {@code maxQueueTime}, and answers every other one at once with {@code 503},
 * {@code Retry-After} and the service's JSON error body. A place is released when the request completes: an
 * {@code AsyncResponse} request holds one until its answer is written. Requests to the paths the application passes
 * in (the long-polls, which have their own bound, and POST /events, whose body is read without a thread) take no
 * place. The admin connector is not behind it.
 *
 * <p>Threads: the start-up thread resolves the limits ({@link com.example.threading.admission.AdmissionLimits}) and
 * inserts the handler. The Jetty thread that handles a request either passes it on (a place was free), suspends it
 * and returns (no thread is held while it waits), or answers 503 itself (queue full). When a request completes,
 * the thread completing it hands its place to the oldest suspended request, which is resumed on a pool thread;
 * a suspended request that waits too long is refused from Jetty's scheduler via a pool thread. Metric scrapes run
 * on the admin connector's threads.
 *
 * <p>Entry class: {@link com.example.threading.admission.AdmissionBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new AdmissionBundle<>(MyConfiguration::getAdmission, threadBound, uncounted paths...))});
 * configuration {@link com.example.threading.admission.AdmissionConfiguration} (section {@code admission}); the
 * thread bound the defaults derive from is {@link com.example.threading.admission.ThreadBound} (or a virtual-thread
 * bound); metrics {@code admission.*}. The guide is {@code docs/admission.md}.
 *
 * <p>To copy: the whole package and one {@code addBundle} line; it needs Dropwizard core (Jetty 12.1) and, for
 * {@code limit: gradient2}, {@code com.netflix.concurrency-limits:concurrency-limits-core}. It imports no pattern
 * package: the paths it must not count are passed in.
 */
package com.example.threading.admission;
