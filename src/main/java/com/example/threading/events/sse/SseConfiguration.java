package com.example.threading.events.sse;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.DataSizeUnit;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDataSize;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDataSize;
import io.dropwizard.validation.MinDuration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * The {@code sse} section of config.yml: the Server-Sent Events streams of {@code GET /events/stream}
 * (docs/sse.md): how many, how long each lives, how often an idle one hears a heartbeat, when a client reconnects,
 * and when a slow reader is shed.
 */
public final class SseConfiguration {

    /** Most streams open at once on this instance; beyond it {@code 503} with Retry-After before the stream starts. */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxStreams = 10_000;

    /**
     * A stream with no event for this long gets a comment line, so proxies and the client see it alive and a client that
     * left is noticed at the write. Below the connector's idle timeout (Jetty's default 30 s).
     */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration heartbeat = Duration.seconds(15);

    /**
     * The client's reconnect delay ({@code retry:}) at the base: each stream gets a value between this and about twice
     * it, spread evenly over the streams, so reconnects after a failure do not arrive together.
     */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration retry = Duration.seconds(3);

    /**
     * A stream is ended after this long with {@code event: reconnect}; the client reconnects (EventSource does by itself,
     * with Last-Event-ID) and lands on whatever instance the balancer picks, so load rebalances and no stream is forever.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration maxLifetime = Duration.minutes(30);

    /**
     * Bytes a stream may hold unsent (queued here or in Jetty, not yet taken by the socket): an answer that finds more
     * still unsent sheds the stream. One answer (a catch-up of up to historySize events) may take it above this.
     */
    @NotNull
    @MinDataSize(1)
    @MaxDataSize(value = 64, unit = DataSizeUnit.MEBIBYTES)
    @JsonProperty
    private DataSize maxUnsentBytes = DataSize.kibibytes(64);

    /** A stream with bytes unsent whose socket has taken nothing for this long is shed. */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration drainTimeout = Duration.seconds(10);

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "sse.heartbeat must be below sse.maxLifetime")
    public boolean isHeartbeatWithinLifetime() {
        return heartbeat.toMilliseconds() < maxLifetime.toMilliseconds();
    }

    int getMaxStreams() {
        return maxStreams;
    }

    Duration getHeartbeat() {
        return heartbeat;
    }

    Duration getRetry() {
        return retry;
    }

    Duration getMaxLifetime() {
        return maxLifetime;
    }

    DataSize getMaxUnsentBytes() {
        return maxUnsentBytes;
    }

    Duration getDrainTimeout() {
        return drainTimeout;
    }
}
