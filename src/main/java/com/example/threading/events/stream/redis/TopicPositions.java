package com.example.threading.events.stream.redis;

import com.codahale.metrics.Meter;
import com.example.threading.events.stream.Event;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a reader is on each topic it watches: the last id it delivered to the hub ({@link #UNKNOWN} until it placed the
 * topic in its stream), and the newest id known to exist (for the lag gauge). Shared by the reader of one Redis
 * ({@link StreamReader}) and of a cluster ({@link ShardedTopicReader}).
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Any threads: {@link #watch}, {@link #forget} and {@link #sawNewest} change the two concurrent maps;
 *       {@link #forget} and {@link #sawNewest} change the newest ids under the topic's entry of the positions (the
 *       map's lock for that key), so a newest id recorded as the topic is forgotten goes with it.</li>
 *   <li>The reader thread alone: {@link #place}, {@link #deliver} and {@link #skip} move a topic's position on, each by
 *       a compare-and-set on its old value, so a topic forgotten meanwhile stays forgotten and no other thread moves a
 *       position.</li>
 *   <li>Readers, any thread: the getters read the maps as they are; {@link #lag} sums topic by topic, not one
 *       snapshot.</li>
 * </ul>
 * {@code TopicPositionsLincheckTest} checks it over the interleavings of a placing and delivering reader, a publisher
 * and a forget.
 */
final class TopicPositions {

    private static final Logger LOG = LoggerFactory.getLogger(TopicPositions.class);

    /** What a watched topic's position is before the reader has placed it in its stream. */
    static final long UNKNOWN = -1;

    private final Map<String, Long> positions = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> newestSeen = new ConcurrentHashMap<>();
    private final Meter gaps;

    /** Positions that count ids found missing in a stream in {@code gaps}. */
    TopicPositions(Meter gaps) {
        this.gaps = gaps;
    }

    /** Starts watching {@code topic}, not yet placed; true when it was not watched before. */
    boolean watch(String topic) {
        return positions.putIfAbsent(topic, UNKNOWN) == null;
    }

    /** Stops watching {@code topic}, and drops the newest id seen on it. */
    void forget(String topic) {
        positions.computeIfPresent(topic, (t, position) -> {
            newestSeen.remove(t); // under the topic's entry, as sawNewest records: one is wholly before the other
            return null;
        });
    }

    /** The last id delivered on {@code topic}, {@link #UNKNOWN} before it is placed, null when not watched. */
    Long position(String topic) {
        return positions.get(topic);
    }

    /** Whether {@code topic} is watched. */
    boolean watches(String topic) {
        return positions.containsKey(topic);
    }

    /** The watched topics, a live view. */
    Set<String> topics() {
        return positions.keySet();
    }

    /** Id of the newest event of {@code topic} delivered to the subscriber, 0 before the first or when not watched. */
    long lastId(String topic) {
        return Math.max(0, positions.getOrDefault(topic, 0L));
    }

    /** Whether the reader has placed {@code topic} in its stream (it reads it from there on). */
    boolean placed(String topic) {
        Long position = positions.get(topic);
        return position != null && position != UNKNOWN;
    }

    /** Topics watched now. */
    int watched() {
        return positions.size();
    }

    /** Events known to exist on the watched topics and not yet delivered. */
    long lag() {
        long lag = 0;
        for (Map.Entry<String, Long> position : positions.entrySet()) {
            AtomicLong newest = newestSeen.get(position.getKey());
            if (newest != null && position.getValue() >= 0) {
                lag += Math.max(0, newest.get() - position.getValue());
            }
        }
        return lag;
    }

    /** Records an id known to exist on {@code topic} (e.g. one this instance just published). */
    void sawNewest(String topic, long id) {
        positions.computeIfPresent(topic, (t, position) -> {
            newestSeen.computeIfAbsent(t, n -> new AtomicLong()).accumulateAndGet(id, Math::max);
            return position;
        });
    }

    /**
     * Places a newly watched topic from {@link StreamScripts#PLACE}'s reply: just before its stream's newest entry
     * {@code newestEntry} (so the next read delivers it), or at its counter {@code numbered} when the stream is empty.
     * Returns the position, or null if the topic was forgotten meanwhile.
     */
    Long place(String topic, long numbered, String newestEntry) {
        long position = newestEntry.isEmpty() ? numbered : StreamEntries.idOf(newestEntry) - 1;
        if (!positions.replace(topic, UNKNOWN, position)) {
            return null;
        }
        sawNewest(topic, numbered);
        return position;
    }

    /**
     * Hands {@code event} to {@code subscriber} if it comes after {@code lastId}, the topic's position (a duplicate is
     * dropped; ids missing in between are counted and logged: the stream no longer has them). Returns the new
     * position, or null when the topic was forgotten meanwhile.
     */
    Long deliver(String topic, long lastId, Event event, Consumer<Event> subscriber) {
        if (event.id() <= lastId) {
            return lastId;
        }
        if (lastId > 0 && event.id() > lastId + 1) {
            gaps.mark();
            LOG.warn("topic {}: ids {} to {} are gone from its stream (trimmed while this reader was cut off, or lost "
                    + "by Redis); clients of this instance skip them", topic, lastId + 1, event.id() - 1);
        }
        subscriber.accept(event);
        if (!positions.replace(topic, lastId, event.id())) {
            return null;
        }
        sawNewest(topic, event.id());
        return event.id();
    }

    /** Moves {@code topic} past an entry that is not an event ({@code entryId}), if it is still at {@code lastId}. */
    void skip(String topic, long lastId, long entryId) {
        positions.replace(topic, lastId, Math.max(lastId, entryId));
    }
}
