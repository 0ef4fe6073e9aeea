package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cursors of a client that follows its topics from one answer to the next (an event stream, a socket): each topic's
 * cursor and epoch in the order asked, advanced by each answer, and the client's position after each event, which it
 * sends back to resume ({@code topic[:cursor[:epoch]]} per topic, comma-separated: {@code room-1:42:mi3b2k0c-1} or
 * {@code a:4:E1,b:7,c}, parsed by the query's cursor rules; topic names and epochs hold no {@code ,} or {@code :}).
 *
 * <p>Not thread-safe: its owner touches it from one thread at a time (the thread handling its current answer), and
 * hands it to the next through the hub's lock and the poll's claim, or a lock of its own.
 */
public final class FollowedCursors {

    /**
     * What one answer brings, in the order to deliver it: {@code missedAt} the position before its events when events
     * before them were lost (or the cursor was of another history), else null; each event with the position after it.
     */
    public record Read(String missedAt, List<Event> events, List<String> positions) {
    }

    /** Each topic's cursor (null: its next event), in the order asked. */
    private final Map<String, Long> cursors = new LinkedHashMap<>();
    private final Map<String, String> epochs = new HashMap<>();
    /** The parked cursors last kept: a standing poll's stay the same map for its life, so they are read once. */
    private Map<String, Long> keptParked;

    /** Following {@code asked}, in its order. */
    public FollowedCursors(List<TopicCursor> asked) {
        asked.forEach(this::follow);
    }

    /** Follows {@code topic} from its cursor and epoch on; a topic followed already restarts from them. */
    public void follow(TopicCursor topic) {
        cursors.put(topic.topic(), topic.after());
        epochs.remove(topic.topic());
        if (topic.epoch() != null) {
            epochs.put(topic.topic(), topic.epoch());
        }
    }

    /** Stops following {@code topic}. */
    public void drop(String topic) {
        cursors.remove(topic);
        epochs.remove(topic);
    }

    /** The topics followed, in order. */
    public List<String> topics() {
        return List.copyOf(cursors.keySet());
    }

    /** The next poll: every topic with its cursor and epoch. */
    public List<TopicCursor> asked() {
        List<TopicCursor> asked = new ArrayList<>(cursors.size());
        cursors.forEach((topic, cursor) -> asked.add(new TopicCursor(topic, cursor, epochs.get(topic))));
        return asked;
    }

    /**
     * A topic followed without a cursor reads after the id the hub gave it when a poll was parked ({@code parked}: the
     * poll's cursors as parked), so nothing published between that poll and the next is skipped. The same map again
     * (a standing poll's, at each of its events) is not read again.
     */
    public void keepParked(Map<String, Long> parked) {
        if (parked == null || parked == keptParked) {
            return;
        }
        keptParked = parked;
        parked.forEach((topic, cursor) -> {
            if (cursor != null && cursors.containsKey(topic) && cursors.get(topic) == null) {
                cursors.put(topic, cursor);
            }
        });
    }

    /**
     * Reads one answer ({@link EventBatch} for a poll of one topic, {@link TopicsBatch} for several, {@link TopicNews}
     * for one topic of a standing subscription) and advances the cursors past it.
     */
    public Read read(Object answer) {
        List<Event> events;
        boolean missed;
        Map<String, Long> next = new LinkedHashMap<>();
        if (answer instanceof TopicNews news) {
            events = news.events();
            missed = news.missed();
            if (!events.isEmpty()) {
                next.put(news.topic(), events.get(events.size() - 1).id());
            }
            if (news.epoch() != null) {
                epochs.put(news.topic(), news.epoch());
            }
        } else if (answer instanceof EventBatch batch) {
            String topic = cursors.keySet().iterator().next();
            events = batch.events();
            missed = batch.missed();
            next.put(topic, batch.lastId());
            if (batch.epoch() != null) {
                epochs.put(topic, batch.epoch());
            }
        } else {
            TopicsBatch batch = (TopicsBatch) answer;
            events = batch.events();
            missed = batch.missed();
            next.putAll(batch.cursors());
            epochs.putAll(batch.epochs());
        }
        // The position before the first event: a topic without events here is at its new cursor already (a topic asked
        // without one now has one); a topic with events just before its first (after a loss: not the old cursor).
        cursors.putAll(next);
        for (Event event : events) {
            cursors.merge(event.topic(), event.id() - 1, Math::min);
        }
        String missedAt = missed ? position() : null;
        List<String> positions = new ArrayList<>(events.size());
        for (Event event : events) {
            cursors.put(event.topic(), event.id());
            positions.add(position());
        }
        cursors.putAll(next);
        return new Read(missedAt, events, positions);
    }

    /** The position now: {@code topic[:cursor[:epoch]]} per topic, comma-separated, in the order asked. */
    public String position() {
        StringBuilder position = new StringBuilder();
        cursors.forEach((topic, cursor) -> {
            if (!position.isEmpty()) {
                position.append(',');
            }
            position.append(topic);
            if (cursor != null) {
                position.append(':').append(cursor);
                String epoch = epochs.get(topic);
                if (epoch != null) {
                    position.append(':').append(epoch);
                }
            }
        });
        return position.toString();
    }
}
