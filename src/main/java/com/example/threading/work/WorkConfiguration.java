package com.example.threading.work;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code work} section of config.yml: async timeout and the sizes of the pools behind {@code
 * /work/{pattern}}.
 */
public final class WorkConfiguration {

    /** Longest a suspended request may wait (queue + work) before it is answered 503. */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @JsonProperty
    private Duration asyncTimeout = Duration.seconds(65);

    /** Retry-After sent with every 503 of the /work patterns. */
    @NotNull
    @JsonProperty
    private Duration retryAfter = Duration.seconds(1);

    @Valid
    @NotNull
    @JsonProperty
    private ThreadPerRequest threadPerRequest = new ThreadPerRequest();

    @Valid
    @NotNull
    @JsonProperty
    private CachedPool cachedPool = new CachedPool();

    @Valid
    @NotNull
    @JsonProperty
    private BoundedPool boundedPool = new BoundedPool();

    /** How long stop() waits for each pool's tasks once the server has stopped taking requests. */
    @NotNull
    @JsonProperty
    private Duration poolShutdownTimeout = Duration.seconds(5);

    @Valid
    @NotNull
    @JsonProperty
    private Virtual virtual = new Virtual();

    Duration getAsyncTimeout() {
        return asyncTimeout;
    }

    Duration getRetryAfter() {
        return retryAfter;
    }

    ThreadPerRequest getThreadPerRequest() {
        return threadPerRequest;
    }

    CachedPool getCachedPool() {
        return cachedPool;
    }

    /** The bounded pool's sizes. */
    public BoundedPool getBoundedPool() {
        return boundedPool;
    }

    Duration getPoolShutdownTimeout() {
        return poolShutdownTimeout;
    }

    /**
     * The thread-per-request anti-pattern's cap: at most {@code maxThreads} of its threads alive at once, so that it
     * still shows its cost at the articles' scale (100 concurrent) but a burst cannot start thousands of threads.
     */
    public static final class ThreadPerRequest {
        @Min(1)
        @Max(10_000)
        @JsonProperty
        private int maxThreads = 200;

        int getMaxThreads() {
            return maxThreads;
        }
    }

    /** A cached pool: threads are created on demand and reused; {@code maxThreads} is only a safety cap. */
    public static final class CachedPool {
        @Min(1)
        @JsonProperty
        private int maxThreads = 1000;

        @NotNull
        @JsonProperty
        private Duration keepAlive = Duration.seconds(60);

        int getMaxThreads() {
            return maxThreads;
        }

        Duration getKeepAlive() {
            return keepAlive;
        }
    }

    /** {@code /work/virtual}'s virtual threads. */
    public Virtual getVirtual() {
        return virtual;
    }

    /**
     * {@code /work/virtual}'s scarce downstream: how many connections its waits share (0: none, each wait is the
     * simulated sleep alone), and the bulkhead in front of them.
     */
    public static final class Virtual {
        @Min(0)
        @Max(100_000)
        @JsonProperty
        private int downstreamConnections = 0;

        @MinDuration(value = 0, unit = TimeUnit.MILLISECONDS)
        @JsonProperty
        private Duration maxWait;

        /** Connections the waits share; 0 for none. */
        public int getDownstreamConnections() {
            return downstreamConnections;
        }

        /** Longest a wait waits for a connection before 503; empty: as long as it takes (no bulkhead). */
        public Optional<Duration> getMaxWait() {
            return Optional.ofNullable(maxWait);
        }
    }

    /** A fixed number of threads in front of a bounded queue; the overflow is rejected with 503. */
    public static final class BoundedPool {
        @Min(1)
        @Max(10_000)
        @JsonProperty
        private int threads = 50;

        @Min(0)
        @Max(100_000)
        @JsonProperty
        private int queueCapacity = 50;

        /** Threads of the bounded pool. */
        public int getThreads() {
            return threads;
        }

        /** Queue places behind them. */
        public int getQueueCapacity() {
            return queueCapacity;
        }
    }
}
