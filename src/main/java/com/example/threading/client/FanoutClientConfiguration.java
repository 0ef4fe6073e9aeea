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
 * full. Dropwizard's defaults (1, 128, 8) therefore run up to 9 calls on a single thread.
 *
 * <p>Thread-safety: filled in by Jackson on the start-up thread and only read afterwards, by {@link
 * ClientFanout#register} (and Dropwizard's client builder) on that same thread.
 */
public final class FanoutClientConfiguration extends JerseyClientConfiguration {

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
     * Most {@code via=common} calls in flight at once, over all fan-outs: each may be a thread of its own (JDK 17 on 2
     * CPUs starts a thread per task). A fan-out that does not fit gets 503 with Retry-After; n above it, 400.
     */
    @Min(1)
    @Max(FanoutResource.MAX_N)
    @JsonProperty
    private int commonMaxCalls = 200;

    /** Retry-After of the 503 of a via=common fan-out refused by {@code commonMaxCalls}. */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration commonRetryAfter = Duration.seconds(1);

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

    int getCommonMaxCalls() {
        return commonMaxCalls;
    }

    Duration getCommonRetryAfter() {
        return commonRetryAfter;
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

    /** Only absolute http(s) URLs can be called. */
    @JsonIgnore
    @ValidationMethod(message = "downstreamUrl must be an absolute http or https URL")
    public boolean isDownstreamUrlAbsoluteHttp() {
        return downstreamUrl == null
                || ("http".equalsIgnoreCase(downstreamUrl.getScheme()) || "https".equalsIgnoreCase(downstreamUrl.getScheme()))
                && downstreamUrl.getHost() != null;
    }
}
