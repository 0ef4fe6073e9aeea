package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
    public record Read(String missedAt, List<Event> events, List<Position> positions) {
    }

    /**
     * A client's position after one event, as bytes to copy into the message that carries the event: each topic's
     * {@code topic[:cursor[:epoch]]} in UTF-8, comma-separated, in the order asked. Its parts are shared with the
     * positions before and after it until their topic moves, so a position costs an array of references, and a message
     * of a client that follows many topics is made with one copy of them, not a string joined and then encoded.
     *
     * <p>Immutable: any thread may read it.
     */
    public static final class Position {

        private final byte[][] parts;
        private final int length;

        private Position(byte[][] parts, int length) {
            this.parts = parts;
            this.length = length;
        }

        /** Its length in UTF-8 bytes. */
        public int length() {
            return length;
        }

        /** Copies its UTF-8 bytes into {@code into} from index {@code at}; returns the index after them. */
        public int copyTo(byte[] into, int at) {
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    into[at++] = ',';
                }
                System.arraycopy(parts[i], 0, into, at, parts[i].length);
                at += parts[i].length;
            }
            return at;
        }

        /** The position as text, as a client sends it back. */
        @Override
        public String toString() {
            byte[] text = new byte[length];
            copyTo(text, 0);
            return new String(text, StandardCharsets.UTF_8);
        }
    }

    /** One followed topic: its cursor (null: its next event), its epoch (null: unknown), and its part of the position. */
    private static final class Followed {
        private Long cursor;
        private String epoch;
        /** {@code topic[:cursor[:epoch]]} in UTF-8, made when a position is asked for; null after a change. */
        private byte[] part;

        void cursor(Long value) {
            cursor = value;
            part = null;
        }

        void epoch(String value) {
            epoch = value;
            part = null;
        }
    }

    /** Each topic followed, in the order asked. */
    private final Map<String, Followed> followed = new LinkedHashMap<>();
    /** The parked cursors last kept: a standing poll's stay the same map for its life, so they are read once. */
    private Map<String, Long> keptParked;

    /** Following {@code asked}, in its order. */
    public FollowedCursors(List<TopicCursor> asked) {
        asked.forEach(this::follow);
    }

    /** Follows {@code topic} from its cursor and epoch on; a topic followed already restarts from them. */
    public void follow(TopicCursor topic) {
        Followed one = at(topic.topic());
        one.cursor(topic.after());
        one.epoch(topic.epoch());
    }

    /** Stops following {@code topic}. */
    public void drop(String topic) {
        followed.remove(topic);
    }

    /** The topics followed, in order. */
    public List<String> topics() {
        return List.copyOf(followed.keySet());
    }

    /** The next poll: every topic with its cursor and epoch. */
    public List<TopicCursor> asked() {
        List<TopicCursor> asked = new ArrayList<>(followed.size());
        followed.forEach((topic, one) -> asked.add(new TopicCursor(topic, one.cursor, one.epoch)));
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
            Followed one = followed.get(topic);
            if (cursor != null && one != null && one.cursor == null) {
                one.cursor(cursor);
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
        Map<String, Long> next;
        Map<String, String> epochs;
        if (answer instanceof TopicNews news) {
            events = news.events();
            missed = news.missed();
            next = events.isEmpty() ? Map.of() : Map.of(news.topic(), events.get(events.size() - 1).id());
            epochs = news.epoch() == null ? Map.of() : Map.of(news.topic(), news.epoch());
        } else if (answer instanceof EventBatch batch) {
            String topic = followed.keySet().iterator().next();
            events = batch.events();
            missed = batch.missed();
            next = Map.of(topic, batch.lastId());
            epochs = batch.epoch() == null ? Map.of() : Map.of(topic, batch.epoch());
        } else {
            TopicsBatch batch = (TopicsBatch) answer;
            events = batch.events();
            missed = batch.missed();
            next = batch.cursors();
            epochs = batch.epochs();
        }
        // The position before the first event: a topic without events here is at its new cursor already (a topic asked
        // without one now has one); a topic with events just before its first (after a loss: not the old cursor).
        advance(next);
        epochs.forEach((topic, epoch) -> {
            Followed one = followed.get(topic);
            if (one != null) {
                one.epoch(epoch);
            }
        });
        for (Event event : events) {
            Followed one = at(event.topic());
            if (one.cursor == null || one.cursor > event.id() - 1) {
                one.cursor(event.id() - 1);
            }
        }
        String missedAt = missed ? position() : null;
        List<Position> positions = new ArrayList<>(events.size());
        for (Event event : events) {
            at(event.topic()).cursor(event.id());
            positions.add(positionNow());
        }
        advance(next);
        return new Read(missedAt, events, positions);
    }

    /** The position now, as text: {@code topic[:cursor[:epoch]]} per topic, comma-separated, in the order asked. */
    public String position() {
        return positionNow().toString();
    }

    /** The position now. Each topic's part is made once per change, so a client of many topics pays for one per event. */
    private Position positionNow() {
        byte[][] parts = new byte[followed.size()][];
        int length = Math.max(parts.length - 1, 0); // the commas
        int i = 0;
        for (Map.Entry<String, Followed> entry : followed.entrySet()) {
            Followed one = entry.getValue();
            if (one.part == null) {
                one.part = part(entry.getKey(), one).getBytes(StandardCharsets.UTF_8);
            }
            parts[i++] = one.part;
            length += one.part.length;
        }
        return new Position(parts, length);
    }

    private static String part(String topic, Followed one) {
        if (one.cursor == null) {
            return topic;
        }
        return one.epoch == null ? topic + ':' + one.cursor : topic + ':' + one.cursor + ':' + one.epoch;
    }

    private Followed at(String topic) {
        return followed.computeIfAbsent(topic, t -> new Followed());
    }

    private void advance(Map<String, Long> cursors) {
        cursors.forEach((topic, cursor) -> at(topic).cursor(cursor));
    }
}
