package com.example.threading.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.client.JerseyClientConfiguration;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * The {@code client} section of config.yml: Dropwizard's own Jersey client settings (pool sizes, timeouts,
 * connection pool, gzip...) plus where {@code /fanout} sends its calls and how long it may take.
 *
 * <p>The pool knobs ({@code minThreads}, {@code maxThreads}, {@code workQueueSize}) build a
 * {@link java.util.concurrent.ThreadPoolExecutor}, which starts a new thread per task only while it has fewer
 * than {@code minThreads}; past that it queues, and only grows towards {@code maxThreads} once the queue is
 * full. Dropwizard's defaults (1, 128, 8) therefore run up to 9 calls on a single thread. So this class's defaults are
 * config.yml's, not Dropwizard's: a copier who leaves the {@code client} section out gets the pool, timeouts and
 * connection reuse that docs/client.md measures, not the ones it measures queuing, refusing and failing
 * ({@code FanoutClientDefaultsTest}).
 */
public final class FanoutClientConfiguration extends JerseyClientConfiguration {

    /** The defaults of config.yml's {@code client} section, over Dropwizard's. */
    public FanoutClientConfiguration() {
        setMinThreads(128); // = maxThreads: the first 128 concurrent calls each get a thread at once
        setMaxThreads(128);
        setWorkQueueSize(1024); // at least 2 x maxCallsInFlight: the pool never refuses a call
        setMaxConnections(1024);
        setMaxConnectionsPerRoute(1024); // >= maxThreads: every call goes to one route
        setConnectionRequestTimeout(Duration.seconds(5));
        setConnectionTimeout(Duration.seconds(1));
        setTimeout(Duration.seconds(65)); // above the longest ms /work accepts (60 s); Dropwizard's 500 ms fails those
        setKeepAlive(Duration.seconds(10)); // Dropwizard's 0 opens a connection per call
        setRetries(0);
    }

    /** Absolute URL called {@code n} times (with {@code ?ms=} appended); {@code null} = this service's own /work/cached. */
    @JsonProperty
    private URI downstreamUrl;

    /** How long an idle client thread is kept, core threads included (the pool shrinks to zero when idle). */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @JsonProperty
    private Duration threadKeepAlive = Duration.seconds(60);

    /** Longest a /fanout may take; it then answers with the calls finished so far and counts the rest as errors. */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @JsonProperty
    private Duration fanoutTimeout = Duration.minutes(5);

    /**
     * Most calls in flight at once on the managed pool ({@code via=managed|rxjava|callback}, and {@code via=structured}'s
     * virtual threads with them), over all fan-outs; a
     * fan-out runs at most this many at once and starts the next as one ends. A fan-out that does not fit beside
     * those running gets 503 with Retry-After. At most {@code maxThreads}: a call holds a thread while it waits.
     */
    @Min(1)
    @Max(FanoutResource.MAX_N)
    @JsonProperty
    private int maxCallsInFlight = 128;

    /**
     * Most {@code via=common} calls in flight at once, over all fan-outs: each may be a thread of its own (JDK 17 on 2
     * CPUs starts a thread per task). A fan-out that does not fit gets 503 with Retry-After; n above it, 400.
     */
    @Min(1)
    @Max(FanoutResource.MAX_N)
    @JsonProperty
    private int commonMaxCalls = 200;

    /** Retry-After of the 503 of a fan-out that does not fit ({@code maxCallsInFlight}, {@code commonMaxCalls}). */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration retryAfter = Duration.seconds(1);

    /** How long stop() waits for the client pool's tasks once the server has stopped taking requests. */
    @NotNull
    @JsonProperty
    private Duration poolShutdownTimeout = Duration.seconds(5);

    URI getDownstreamUrl() {
        return downstreamUrl;
    }

    Duration getThreadKeepAlive() {
        return threadKeepAlive;
    }

    Duration getFanoutTimeout() {
        return fanoutTimeout;
    }

    int getMaxCallsInFlight() {
        return maxCallsInFlight;
    }

    int getCommonMaxCalls() {
        return commonMaxCalls;
    }

    Duration getRetryAfter() {
        return retryAfter;
    }

    Duration getPoolShutdownTimeout() {
        return poolShutdownTimeout;
    }

    /** A ThreadPoolExecutor refuses a maximum below its core size. */
    @JsonIgnore
    @ValidationMethod(message = "maxThreads must be at least minThreads")
    public boolean isMaxThreadsAtLeastMinThreads() {
        return getMaxThreads() >= getMinThreads();
    }

    /** A call in flight holds a pool thread: more places than threads would only queue calls. */
    @JsonIgnore
    @ValidationMethod(message = "client.maxCallsInFlight must be at most client.maxThreads")
    public boolean isMaxCallsInFlightAtMostMaxThreads() {
        return maxCallsInFlight <= getMaxThreads();
    }

    /** Only absolute http(s) URLs can be called. */
    @JsonIgnore
    @ValidationMethod(message = "downstreamUrl must be an absolute http or https URL")
    public boolean isDownstreamUrlAbsoluteHttp() {
        return downstreamUrl == null
                || ("http".equalsIgnoreCase(downstreamUrl.getScheme()) || "https".equalsIgnoreCase(downstreamUrl.getScheme()))
                && downstreamUrl.getHost() != null;
    }
}
