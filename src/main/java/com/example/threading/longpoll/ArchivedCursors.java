package com.example.threading.longpoll;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cursors a shared stream's hub cannot answer from its ring: older than the ring holds, above the newest event
 * this instance has read on the topic (published elsewhere; its reader has not delivered it yet), or the "next event"
 * of a topic this instance has only just started to read (where is the stream now?). Reads the stream's
 * {@link EventArchive} and says what to do with the poll ({@link Resolution}). The in-process hub has none of this:
 * its ring is all the history there is.
 *
 * <p>Thread-safety: {@link #resolve} may be called from any thread; its stage completes on the archive's thread and
 * only reads the hub's newest id of the topic ({@code lastIdReadHere}, which takes the hub's lock).
 */
final class ArchivedCursors {

    private static final Logger LOG = LoggerFactory.getLogger(ArchivedCursors.class);

    /** What the archive says about a cursor. */
    enum Kind {
        /** Answer with these events ({@link Resolution#news}). */
        NEWS,
        /** Nothing after the cursor yet, and this instance has not read past it: wait after {@link Resolution#waitAfter}. */
        WAIT,
        /**
         * Beyond the stream's newest id (e.g. a cursor from before the store lost its data): the ring's answer, with
         * missed; {@link Resolution#news} holds the stream's newest id, for a ring that has not read that far.
         */
        RING,
        /** The archive could not be read. */
        UNAVAILABLE
    }

    /** A resolution: the events to answer with ({@link Kind#NEWS}), or the cursor to wait after ({@link Kind#WAIT}). */
    record Resolution(Kind kind, EventBatch news, long waitAfter) {
    }

    private final EventArchive archive;
    private final int limit;
    private final ToLongFunction<String> lastIdReadHere;

    /** Reads at most {@code limit} events per cursor from {@code archive}; {@code lastIdReadHere} is the hub's newest id of a topic. */
    ArchivedCursors(EventArchive archive, int limit, ToLongFunction<String> lastIdReadHere) {
        this.archive = archive;
        this.limit = limit;
        this.lastIdReadHere = lastIdReadHere;
    }

    /**
     * Reads the events of {@code topic} after {@code cursor}, or, for a null cursor (the next event), where the topic
     * is now; never fails (an unreadable archive is {@link Kind#UNAVAILABLE}).
     */
    CompletionStage<Resolution> resolve(String topic, Long cursor) {
        return resolve(topic, cursor, true);
    }

    private CompletionStage<Resolution> resolve(String topic, Long cursor, boolean mayReadAgain) {
        CompletionStage<EventArchive.Read> read;
        try {
            read = archive.after(topic, cursor == null ? 0 : cursor, cursor == null ? 0 : limit);
        } catch (RuntimeException brokenArchive) {
            read = CompletableFuture.failedFuture(brokenArchive);
        }
        return read.handle((log, failure) -> decide(topic, cursor, log, failure, mayReadAgain))
                .thenCompose(Function.identity());
    }

    private CompletionStage<Resolution> decide(String topic, Long cursor, EventArchive.Read log, Throwable failure,
                                               boolean mayReadAgain) {
        if (failure != null) {
            LOG.debug("event archive unavailable for {} after {}: {}", topic, cursor, failure.toString());
            return CompletableFuture.completedFuture(new Resolution(Kind.UNAVAILABLE, null, 0));
        }
        if (cursor == null) {
            return CompletableFuture.completedFuture(new Resolution(Kind.WAIT, null, log.newestId())); // the next event after the newest
        }
        if (!log.events().isEmpty()) {
            List<Event> events = log.events();
            return CompletableFuture.completedFuture(new Resolution(Kind.NEWS,
                    new EventBatch(events, events.get(0).id() != cursor + 1, events.get(events.size() - 1).id()), 0));
        }
        long readHere = lastIdReadHere.applyAsLong(topic);
        if (cursor <= log.newestId() && cursor >= readHere) {
            return CompletableFuture.completedFuture(new Resolution(Kind.WAIT, null, cursor));
        }
        if (cursor < readHere && mayReadAgain) {
            // Nothing after the cursor when the stream was read, yet this instance has read past it since: published
            // meanwhile, and the reader may have started the topic's ring above the cursor. Read again, or the
            // poll would be answered "missed" for events the stream holds.
            return resolve(topic, cursor, false);
        }
        return CompletableFuture.completedFuture(
                new Resolution(Kind.RING, new EventBatch(List.of(), true, Math.max(log.newestId(), readHere)), 0));
    }
}
