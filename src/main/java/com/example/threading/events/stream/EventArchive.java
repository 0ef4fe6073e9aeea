package com.example.threading.events.stream;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The whole log of a shared event stream, for the cursors the hub's ring cannot answer: ids older than the ring
 * holds, and ids above the newest this instance has read (published elsewhere, not yet delivered by its reader).
 * The in-process stream has none: its ring is all there is.
 *
 * <p>Contract for implementations: {@link #after} must not block the caller (a Jetty worker) and its stage must
 * complete within a bounded time, normally or exceptionally (store unreachable).
 *
 * <p>Implementations accept {@link #after} from any number of threads at once; the stage may
 * complete on any thread, and the hub does only non-blocking work there.
 */
public interface EventArchive {

    /**
     * The events of {@code topic} with ids above {@code cursor} that the log still holds, oldest first, at most
     * {@code limit} (0: none, only the newest id), read together with the newest id the stream has numbered on that
     * topic.
     */
    CompletionStage<Read> after(String topic, long cursor, int limit);

    /**
     * One read of the log: {@code events} oldest first (an id missing before the first means the log trimmed it);
     * {@code newestId} the newest id the stream has numbered on the topic when it was read (0 before the first);
     * {@code epoch} the history the ids count in, new whenever the store recreated the stream (null: none yet).
     */
    record Read(List<Event> events, long newestId, String epoch) {

        /** Copies the list so the read cannot change afterwards. */
        public Read {
            events = List.copyOf(events);
        }

        /** A read of a log without epochs. */
        public Read(List<Event> events, long newestId) {
            this(events, newestId, null);
        }
    }
}
