package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive.Read;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A topic's publish and history scripts as one Redis or a Redis Cluster runs them ({@link StreamScripts}), with their
 * replies read into events and their outcomes counted in {@link RedisStreamMetrics}. On a cluster the scripts' first
 * key (the topic's stream) routes them to the master of the topic's slot.
 *
 * <p>The stages it returns complete on a lettuce I/O thread: what is chained to them must not block.
 */
final class TopicCalls {

    private final TopicKeys keys;
    private final ObjectMapper mapper;
    private final StreamEntries entries;
    private final RedisStreamMetrics metrics;
    private final String maxLen;
    private final String publishScript;

    /** The keys of the topics' streams and counters. */
    TopicKeys keys() {
        return keys;
    }

    /** How events are read from and written to stream entries. */
    StreamEntries entries() {
        return entries;
    }

    /** Calls on the keys {@code keys} names, publishing with {@code publishScript} and trimming to about {@code maxLen}. */
    TopicCalls(TopicKeys keys, ObjectMapper mapper, RedisStreamMetrics metrics, long maxLen, String publishScript) {
        this.keys = keys;
        this.mapper = mapper;
        this.entries = new StreamEntries(mapper);
        this.metrics = metrics;
        this.maxLen = Long.toString(maxLen);
        this.publishScript = publishScript;
    }

    /**
     * Numbers and appends {@code data} on {@code topic} through {@code redis} (null: not connected, because of
     * {@code problem}), raising the counter first to the newest id the reader delivered ({@code positions}) if Redis
     * lost it, and records the new id there; {@code where} names Redis in errors.
     */
    CompletionStage<Event> publish(RedisScriptingAsyncCommands<String, String> redis, String where, String problem,
                                   TopicPositions positions, String topic, JsonNode data) {
        long floor = positions.lastId(topic);
        if (redis == null) {
            metrics.publishFailures.mark();
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis at " + where + ": " + problem));
        }
        String json;
        try {
            json = mapper.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            return CompletableFuture.failedFuture(e);
        }
        long start = System.nanoTime();
        CompletionStage<List<Object>> reply = redis.<List<Object>>eval(publishScript, ScriptOutputType.MULTI,
                keys.scriptKeys(topic), json, maxLen, Long.toString(floor));
        return reply.handle((idTimeAndEpoch, failure) -> {
            if (failure != null) {
                metrics.publishFailures.mark();
                throw new IllegalStateException("Redis at " + where + " did not take the event: " + failure, failure);
            }
            metrics.publishLatency.update(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            long id = Long.parseLong(String.valueOf(idTimeAndEpoch.get(0)));
            positions.sawNewest(topic, id);
            return new Event(id, topic, Instant.ofEpochMilli(Long.parseLong(String.valueOf(idTimeAndEpoch.get(1)))), data,
                    String.valueOf(idTimeAndEpoch.get(2)));
        });
    }

    /**
     * The events of {@code topic} after {@code cursor} the stream holds (at most {@code limit}), with the newest id
     * numbered, read through {@code redis} (null: not connected, because of {@code problem}); the newest id is
     * recorded in {@code positions}.
     */
    CompletionStage<Read> after(RedisScriptingAsyncCommands<String, String> redis, String where, String problem,
                                TopicPositions positions, String topic, long cursor, int limit) {
        if (redis == null) {
            metrics.historyReadFailures.mark();
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis at " + where + ": " + problem));
        }
        metrics.historyReads.mark();
        return history(redis, topic, cursor, limit).handle((read, failure) -> {
            if (failure != null) {
                metrics.historyReadFailures.mark();
                throw new IllegalStateException("Redis at " + where + " could not read the stream: " + failure, failure);
            }
            positions.sawNewest(topic, read.newestId());
            return read;
        });
    }

    /** One run of {@link StreamScripts#HISTORY}, uncounted: the stream's entries after {@code cursor}, its newest id and epoch. */
    CompletionStage<Read> history(RedisScriptingAsyncCommands<String, String> redis, String topic, long cursor, int limit) {
        CompletionStage<List<Object>> reply = redis.<List<Object>>eval(StreamScripts.HISTORY, ScriptOutputType.MULTI,
                keys.scriptKeys(topic), StreamEntries.entryId(cursor + 1), Integer.toString(limit));
        return reply.thenApply(newestEntriesEpoch -> {
            String epoch = String.valueOf(newestEntriesEpoch.get(2));
            return new Read(entries.events(topic, (List<?>) newestEntriesEpoch.get(1)),
                    Long.parseLong(String.valueOf(newestEntriesEpoch.get(0))), epoch.isEmpty() ? null : epoch);
        });
    }
}
