package com.example.threading.longpoll;

import com.example.threading.longpoll.redis.RedisStreamConfiguration;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/**
 * The {@code events.stream} section: where events are numbered and shared. {@code in-process} (the default) numbers
 * them in this JVM; {@code redis} appends them to one Redis Stream that every instance reads, so any instance
 * answers any cursor (package {@code longpoll.redis}, guide {@code docs/longpoll-redis.md}).
 *
 * <p>Thread-safety: filled in by Jackson on the start-up thread and only read afterwards, on that same thread.
 */
public final class EventStreamConfiguration {

    /** The kinds of event stream. */
    public enum Type {
        /** Numbered in this JVM; nothing to install; one instance only. */
        @JsonProperty("in-process")
        IN_PROCESS,
        /** One Redis Stream shared by every instance. */
        @JsonProperty("redis")
        REDIS
    }

    /** {@code in-process} or {@code redis}. */
    @NotNull
    @JsonProperty
    private Type type = Type.IN_PROCESS;

    /** Used when {@code type} is {@code redis}. */
    @Valid
    @NotNull
    @JsonProperty
    private RedisStreamConfiguration redis = new RedisStreamConfiguration();

    /** Which stream to build. */
    public Type getType() {
        return type;
    }

    /** The Redis settings (read only when {@link #getType} is {@link Type#REDIS}). */
    public RedisStreamConfiguration getRedis() {
        return redis;
    }
}
