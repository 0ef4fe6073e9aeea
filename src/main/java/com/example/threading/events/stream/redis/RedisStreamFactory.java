package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.EventStream;
import com.example.threading.events.stream.TickGate;
import com.example.threading.events.stream.config.EventStreamFactory;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.dropwizard.core.setup.Environment;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;

/**
 * {@code events.stream.type: redis}: one Redis Stream per topic shared by every instance, on one Redis
 * ({@link RedisEventStream}) or, with {@code events.stream.redis.cluster: true}, on a Redis Cluster
 * ({@link RedisClusterEventStream}), with its settings under {@code events.stream.redis}. Known to Jackson once {@link RedisEventStreamBundle} is added.
 */
@JsonTypeName(RedisStreamFactory.TYPE)
public final class RedisStreamFactory implements EventStreamFactory {

    /** The value of {@code events.stream.type}. */
    public static final String TYPE = "redis";

    /** Which Redis, which key, how much to keep, the timeouts. */
    @Valid
    @NotNull
    @JsonProperty
    private RedisStreamConfiguration redis = new RedisStreamConfiguration();

    /** The {@code events.stream.redis} settings. */
    public RedisStreamConfiguration getRedis() {
        return redis;
    }

    @Override
    public EventStream build(Environment environment, int historySize, long tickPeriodMs) {
        if (redis.isCluster()) {
            RedisClusterEventStream stream = RedisClusterEventStream.register(environment, redis);
            TickGate gate = tickPeriodMs > 0 ? stream.tickGate(tickPeriodMs) : TickGate.ALWAYS;
            return new EventStream(stream, stream, Optional.of(stream), gate);
        }
        RedisEventStream stream = RedisEventStream.register(environment, redis);
        // Instances sharing the stream tick only while they hold the cluster's ticker lease: one tick per period.
        TickGate gate = tickPeriodMs > 0 ? stream.tickGate(tickPeriodMs) : TickGate.ALWAYS;
        return new EventStream(stream, stream, Optional.of(stream), gate);
    }
}
