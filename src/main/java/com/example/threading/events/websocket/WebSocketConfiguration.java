package com.example.threading.events.websocket;

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
 * The {@code websocket} section of config.yml: the sockets of {@code GET /events/ws} (docs/websocket.md): how
 * many, how long each lives, how often an idle one is pinged, how large a client's message may be, how fast a client
 * may publish, and when a slow reader is shed.
 */
public final class WebSocketConfiguration {

    /** Most sockets open at once on this instance; beyond it {@code 503} with Retry-After before the upgrade. */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxSockets = 10_000;

    /**
     * A socket with no event for this long is pinged, so proxies and the client see it alive and a client that left is
     * noticed at the write. Below the connector's idle timeout (Jetty's default 30 s).
     */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration heartbeat = Duration.seconds(15);

    /**
     * A socket is ended after this long with a {@code reconnect} message and close code 1001; the client reconnects
     * from its last position and lands on whatever instance the balancer picks, so load rebalances.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration maxLifetime = Duration.minutes(30);

    /** Largest text message a client may send; a larger one closes the socket with code 1009. */
    @NotNull
    @MinDataSize(64)
    @MaxDataSize(value = 1, unit = DataSizeUnit.MEBIBYTES)
    @JsonProperty
    private DataSize maxMessageSize = DataSize.kibibytes(8);

    /**
     * Bytes a socket may hold unsent (handed to Jetty, not yet taken by the network): a message that would go beyond
     * it sheds the socket (close code 1008), so a slow reader is never buffered without bound.
     */
    @NotNull
    @MinDataSize(1)
    @MaxDataSize(value = 64, unit = DataSizeUnit.MEBIBYTES)
    @JsonProperty
    private DataSize maxUnsentBytes = DataSize.kibibytes(64);

    /** A socket with bytes unsent whose network has taken nothing for this long is dropped. */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration drainTimeout = Duration.seconds(10);

    /**
     * An upgraded socket that has not opened after this long gives back its place in {@code maxSockets} (counted in
     * {@code events.websocket.never-opened}): over HTTP/2 a client can reset the socket's stream between the answer and
     * the open, and Jetty may then tell the socket nothing. One that opens later is closed with 1013.
     */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration openTimeout = Duration.seconds(10);

    /** Messages a client may send per second (a burst of as many is allowed); one more gets an error message. */
    @Min(1)
    @Max(100_000)
    @JsonProperty
    private int maxMessagesPerSecond = 50;

    /** Publishes of one socket the stream has not yet answered; one more gets an error message. */
    @Min(1)
    @Max(10_000)
    @JsonProperty
    private int maxPublishesInFlight = 16;

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "websocket.heartbeat must be below websocket.maxLifetime")
    public boolean isHeartbeatWithinLifetime() {
        return heartbeat.toMilliseconds() < maxLifetime.toMilliseconds();
    }

    int getMaxSockets() {
        return maxSockets;
    }

    Duration getHeartbeat() {
        return heartbeat;
    }

    Duration getMaxLifetime() {
        return maxLifetime;
    }

    DataSize getMaxMessageSize() {
        return maxMessageSize;
    }

    DataSize getMaxUnsentBytes() {
        return maxUnsentBytes;
    }

    Duration getDrainTimeout() {
        return drainTimeout;
    }

    Duration getOpenTimeout() {
        return openTimeout;
    }

    int getMaxMessagesPerSecond() {
        return maxMessagesPerSecond;
    }

    int getMaxPublishesInFlight() {
        return maxPublishesInFlight;
    }
}
