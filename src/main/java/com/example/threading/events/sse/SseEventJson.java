package com.example.threading.events.sse;

import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.stream.Event;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of each event of an answer, serialized once for all the streams that answer reaches: the polls of one batch
 * with the same cursors share one {@link com.example.threading.events.hub.Answer.News}
 * ({@link com.example.threading.events.hub.BatchAnswers}), so the streams of a topic write bytes
 * made once per event, not once per stream. Keyed by the answer's identity; the last {@value #ANSWERS_KEPT} answers are
 * kept (the dispatcher answers one batch after another, so an answer's streams ask for it close together).
 *
 * <p>Thread-safety: any thread may call {@link #of}; the map is guarded by this object's monitor, and serializing an
 * answer's events happens outside it (two threads may both serialize one answer; either result is the same bytes).
 */
final class SseEventJson {

    private static final int ANSWERS_KEPT = 64;

    private final JsonResponses json;
    @GuardedBy("this")
    private final Map<Object, byte[][]> recent = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, byte[][]> eldest) {
            return size() > ANSWERS_KEPT;
        }
    };

    SseEventJson(JsonResponses json) {
        this.json = json;
    }

    /** The JSON of each of {@code events}, the events of {@code answer} (an {@link com.example.threading.events.history.EventBatch} or {@link com.example.threading.events.history.TopicsBatch}). */
    byte[][] of(Object answer, List<Event> events) {
        Identity key = new Identity(answer);
        synchronized (this) {
            byte[][] known = recent.get(key);
            if (known != null) {
                return known;
            }
        }
        byte[][] made = new byte[events.size()][];
        for (int i = 0; i < made.length; i++) {
            made[i] = json.bytes(events.get(i));
        }
        synchronized (this) {
            recent.put(key, made);
        }
        return made;
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
