package com.example.threading.events.http;

import com.example.threading.events.stream.Event;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON of each event of an answer, serialized once for all the clients that answer reaches: the standing polls a
 * delivery of events reaches share one news per topic, and the polls of one batch with the same cursors share one
 * {@link com.example.threading.events.hub.Answer.News}, so the streams or sockets of a topic send text made once per
 * event, not once per client. Keyed by the answer's identity; the last {@value #ANSWERS_KEPT} answers are kept
 * (the dispatcher answers one batch after another, so an answer's clients ask for it close together).
 *
 * <p>Thread-safety: any thread may call {@link #of}; the map is guarded by this object's monitor, and serializing an
 * answer's events happens outside it (two threads may both serialize one answer; either result is the same).
 *
 * @param <T> one event's JSON as a transport sends it (bytes for a stream, text for a socket)
 */
public final class EventsJson<T> {

    private static final int ANSWERS_KEPT = 64;

    private final Function<Event, T> serialize;
    @GuardedBy("this")
    private final Map<Object, List<T>> recent = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, List<T>> eldest) {
            return size() > ANSWERS_KEPT;
        }
    };

    /** Each event's JSON made by {@code serialize}. */
    public EventsJson(Function<Event, T> serialize) {
        this.serialize = serialize;
    }

    /**
     * The JSON of each of {@code events}, the events of {@code answer} (an
     * {@link com.example.threading.events.history.EventBatch}, a {@link com.example.threading.events.history.TopicsBatch}
     * or the {@link com.example.threading.events.history.TopicNews} a standing poll is handed).
     */
    public List<T> of(Object answer, List<Event> events) {
        Identity key = new Identity(answer);
        synchronized (this) {
            List<T> known = recent.get(key);
            if (known != null) {
                return known;
            }
        }
        List<T> made = new ArrayList<>(events.size());
        for (Event event : events) {
            made.add(serialize.apply(event));
        }
        List<T> kept = List.copyOf(made);
        synchronized (this) {
            recent.put(key, kept);
        }
        return kept;
    }

    /** An answer by identity: two answers with equal contents are two entries (equality would compare every event). */
    private record Identity(Object answer) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Identity that && that.answer == answer;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(answer);
        }
    }
}
