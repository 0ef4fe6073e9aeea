package com.example.threading.admission;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * The {@code admission} section of config.yml: how many requests the application connector lets in at once, how
 * many may wait for a place and for how long, and the {@code Retry-After} of the 503 sent to the rest.
 *
 * <p>{@code maxRequests} and {@code maxQueued} may be left empty: they are then derived from the server's thread
 * bound by {@link AdmissionLimits#resolve}.
 */
public final class AdmissionConfiguration {

    /** Whether admission control is in front of the application at all. */
    @JsonProperty
    private boolean enabled = true;

    /** {@code fixed} (QoSHandler: places and a queue) or {@code gradient2} (an adaptive limit up to maxRequests, no queue). */
    @NotNull
    @JsonProperty
    private LimitKind limit = LimitKind.FIXED;

    /** Requests handled at once (in flight; with gradient2 the ceiling); empty = derived from the thread bound. */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private Integer maxRequests;

    /** Requests waiting for a place; 0 = none wait (refused at once); empty = as many as {@code maxRequests}. */
    @Min(0)
    @Max(1_000_000)
    @JsonProperty
    private Integer maxQueued;

    /** Longest a request waits for a place before it is refused. */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 60, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration maxQueueTime = Duration.seconds(1);

    /** {@code Retry-After} of every refusal, in whole seconds. */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.HOURS)
    @JsonProperty
    private Duration retryAfter = Duration.seconds(1);

    /** Checked by Bean Validation at start-up: the header carries whole seconds only. */
    @JsonIgnore
    @ValidationMethod(message = "retryAfter must be a whole number of seconds (Retry-After has no fractions), e.g. 1s")
    public boolean isRetryAfterWholeSeconds() {
        return retryAfter == null || retryAfter.toNanoseconds() % TimeUnit.SECONDS.toNanos(1) == 0;
    }

    boolean isEnabled() {
        return enabled;
    }

    LimitKind getLimit() {
        return limit;
    }

    Integer getMaxRequests() {
        return maxRequests;
    }

    Integer getMaxQueued() {
        return maxQueued;
    }

    Duration getMaxQueueTime() {
        return maxQueueTime;
    }

    Duration getRetryAfter() {
        return retryAfter;
    }
}
