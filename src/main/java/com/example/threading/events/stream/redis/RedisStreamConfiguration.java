package com.example.threading.events.stream.redis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code events.stream.redis} section: which Redis (one, or a cluster's seeds), which stream key, how much of the stream to keep, and the
 * timeouts of the publish and reader connections.
 */
public final class RedisStreamConfiguration {

    /**
     * {@code redis://host:port[/db]} (or {@code rediss://} for TLS); a password goes in the URI from the environment.
     * With {@link #cluster}: one or more seed nodes of the cluster, comma-separated.
     */
    @NotBlank
    @JsonProperty
    private String uri = "redis://127.0.0.1:6379";

    /** True: {@link #uri} names nodes of a Redis Cluster (Redis 7), and topics spread over its masters. */
    @JsonProperty
    private boolean cluster;

    /**
     * The prefix of the topics' keys: topic T's stream is {@code <key>:{T}}, its counter {@code <key>:{T}:last-id}; the
     * ticker lease {@code <key>:ticker}. No braces: each topic is its own hash tag.
     */
    @NotBlank
    @Pattern(regexp = "[^{}]+", message = "must not contain braces: each topic's keys get a hash tag of their own ({<topic>})")
    @JsonProperty
    private String key = "threading:events";

    /** Approximate length the stream is trimmed to on each append ({@code XADD MAXLEN ~}); older cursors get {@code missed}. */
    @Min(1)
    @Max(100_000_000)
    @JsonProperty
    private long maxLen = 100_000;

    /** Longest wait for one Redis command of a publish or a history read; beyond it the publish fails (503). */
    @NotNull
    @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration commandTimeout = Duration.seconds(1);

    /** Longest pause of the reader between two reconnect attempts (it starts at 100 ms and doubles). */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration maxReconnectDelay = Duration.seconds(2);

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "events.stream.redis.uri must look like redis://host:port (or rediss://); with "
            + "events.stream.redis.cluster: true, one or more such seed nodes, comma-separated")
    public boolean isUriValid() {
        List<String> uris = uri == null ? List.of() : getUris();
        return !uris.isEmpty() && (cluster || uris.size() == 1) && uris.stream().allMatch(RedisStreamConfiguration::isRedisUri);
    }

    private static boolean isRedisUri(String candidate) {
        try {
            URI parsed = URI.create(candidate);
            return ("redis".equals(parsed.getScheme()) || "rediss".equals(parsed.getScheme())) && parsed.getHost() != null;
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    /** The Redis URI (on a cluster: the seed list as written). */
    public String getUri() {
        return uri.trim();
    }

    /** The URIs of {@link #getUri}: one, or a cluster's seeds. */
    public List<String> getUris() {
        return Arrays.stream(uri.split(",")).map(String::trim).filter(part -> !part.isEmpty()).toList();
    }

    /** Whether the URIs name a Redis Cluster. */
    public boolean isCluster() {
        return cluster;
    }

    /** The prefix of the topics' keys. */
    public String getKey() {
        return key;
    }

    /** Approximate trim length of the stream. */
    public long getMaxLen() {
        return maxLen;
    }

    /** Timeout of one publish or history command. */
    public Duration getCommandTimeout() {
        return commandTimeout;
    }

    /** Cap of the reader's reconnect backoff. */
    public Duration getMaxReconnectDelay() {
        return maxReconnectDelay;
    }
}
