/**
 * {@code GET /fanout?n=<1..1000>&ms=<0..60000>&via=<how>}: {@code n} concurrent calls to a downstream with a
 * Jersey client, answering how long they took, on how many client threads and with how many errors
 * ({@link com.example.threading.client.FanoutResult}). {@code via} picks what runs the calls:
 * {@code managed} (JAX-RS {@code rx()} on the client's managed pool), {@code rxjava} (an RxJava 2
 * {@code Flowable}, {@code flatMap} with {@code maxConcurrency}, on the same pool), {@code callback} ({@code async()} with an
 * {@code InvocationCallback}), or {@code common}, the pitfall: a blocking call in
 * {@code CompletableFuture.supplyAsync} without an executor, which lands on the ForkJoin common pool (or a new
 * thread per task, depending on the JDK and the CPU count); {@link com.example.threading.client.CommonCallLimit}
 * caps its calls in flight ({@code client.commonMaxCalls}) so that one request cannot start a thousand threads. And
 * {@code structured} (JDK 25 with {@code --enable-preview}): the calls as subtasks of one {@code StructuredTaskScope},
 * each on a virtual thread, the fan-out timeout as the scope's deadline ({@code ScopedFanout} under
 * {@code src/main/java25-preview}, loaded by {@link com.example.threading.client.StructuredFanouts}); elsewhere 501.
 *
 * <p>Bounds: every call in flight on the managed pool holds one of {@code client.maxCallsInFlight} places
 * ({@link com.example.threading.client.CallPlaces}), taken for a whole fan-out before anything is submitted; a
 * fan-out runs {@code min(n, places)} calls at once ({@link com.example.threading.client.CallWindow}) and one that does
 * not fit is answered 503 with Retry-After, so the pool never holds more than twice the places in tasks and is never
 * what refuses a call.
 *
 * <p>Threads: a Jetty worker validates the query, takes the places, suspends the request and only starts the first
 * calls ({@link com.example.threading.client.FanoutCalls}); the managed pool's threads
 * ({@code jersey-client-fanout-<n>}) each make one blocking HTTP call (the Apache connector is blocking) and
 * report its outcome to the request's {@link com.example.threading.client.FanoutRun}, which answers once every
 * call has an outcome; Jersey's timeout thread answers at {@code client.fanoutTimeout} with what has finished,
 * and the calls not yet started never are (one already handed to a thread is dropped by
 * {@link com.example.threading.client.ThreadRecordingFilter}); the places come back when the last running call ends.
 *
 * <p>Entry class: {@link com.example.threading.client.FanoutBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new FanoutBundle<>(MyConfiguration::getClient))}; path
 * {@link com.example.threading.client.FanoutBundle#PATH}); configuration
 * {@link com.example.threading.client.FanoutClientConfiguration} (section {@code client}: Dropwizard's Jersey
 * client settings plus the downstream, the places and the fan-out timeout); metrics {@code client.fanout.*} and
 * Dropwizard's HTTP-client metrics. The guide (pool sizing, the pitfall, figures) is {@code docs/client.md}.
 *
 * <p>To copy: the package plus {@link com.example.threading.support} (servlet helpers that depend on nothing of this
 * project), and one {@code addBundle} line. It needs {@code io.dropwizard:dropwizard-client} and, for
 * {@code via=rxjava}, {@code io.reactivex.rxjava2:rxjava} (its {@code @GuardedBy} is Error Prone's annotation, which
 * Dropwizard core already brings); and a downstream: {@code client.downstreamUrl}, or by
 * default this service's own {@code /work/cached}
 * ({@link com.example.threading.client.FanoutBundle#SELF_DOWNSTREAM_PATH}: set {@code downstreamUrl} where the work
 * pattern is not copied along). The bundle maps {@link com.example.threading.support.CompleteAsyncOnFailedWrite} on
 * {@code /fanout}: the resource resumes an {@code AsyncResponse}, and Jersey 3.1 on Jetty 12.1 leaves a request whose
 * resumed answer could not be written in flight until the server stops ({@code FanoutLiftOutTest}).
 */
package com.example.threading.client;
