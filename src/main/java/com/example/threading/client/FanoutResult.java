package com.example.threading.client;

import java.util.List;
import java.util.Map;

/**
 * What {@code /fanout} answers. The load tool reads {@code n, via, elapsedMs, distinctThreads, threadSample,
 * errors}: keep those names.
 *
 * <p>Its maps are not copied: the run that builds it hands it to Jersey once, and nobody may change them afterwards.
 *
 * @param n               calls made
 * @param via             how they were made: managed, rxjava, callback, common or structured
 * @param ms              the wait asked of the downstream, {@code null} when left to it (random for /work)
 * @param elapsedMs       from the request to the last call's outcome (or the fan-out timeout)
 * @param distinctThreads client threads seen: those that ran the request filter and those that ran the
 *                        completion stage (callback, onNext) of each call
 * @param threadSample    up to {@value FanoutRun#THREAD_SAMPLE_SIZE} of their names, sorted
 * @param threadsByPool   distinct threads per name prefix (the name without its trailing number), e.g.
 *                        {@code jersey-client-fanout-} or {@code ForkJoinPool.commonPool-worker-}
 * @param succeeded       calls answered 2xx
 * @param errors          calls that failed: non-2xx, connection errors, client timeouts, rejections, unfinished
 * @param errorsByKind    errors per kind ("HTTP 503", "SocketTimeoutException", ...)
 * @param executor        what ran the calls, as the running JVM resolved it
 */
public record FanoutResult(int n, String via, Integer ms, long elapsedMs, int distinctThreads, List<String> threadSample,
                           Map<String, Integer> threadsByPool, int succeeded, int errors, Map<String, Integer> errorsByKind,
                           String executor) {
}
