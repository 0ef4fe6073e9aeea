package com.example.threading.longpoll;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cursors a shared stream's hub cannot answer from its ring: older than the ring holds, or above the newest event
 * this instance has read (published elsewhere; its reader has not delivered it yet). Reads the stream's
 * {@link EventArchive} and says what to do with the poll ({@link Resolution}). The in-process hub has none of this:
 * its ring is all the history there is.
 *
 * <p>Thread-safety: {@link #resolve} may be called from any thread; its stage completes on the archive's thread and
 * only reads the hub's newest id ({@code lastIdReadHere}, which takes the hub's lock).
 */
final class ArchivedCursors {

    private static final Logger LOG = LoggerFactory.getLogger(ArchivedCursors.class);

    /** What the archive says about a cursor. */
    enum Kind {
        /** Answer with these events ({@link Resolution#news}). */
        NEWS,
        /** The cursor is the stream's newest id and this instance has not read past it: park it until the next event. */
        WAIT,
        /** Beyond the stream's newest id (e.g. a cursor from before the store lost its data): the ring's answer, with missed. */
        RING,
        /** The archive could not be read. */
        UNAVAILABLE
    }

    /** A resolution, and the events to answer with for {@link Kind#NEWS}. */
    record Resolution(Kind kind, EventBatch news) {
    }

    private final EventArchive archive;
    private final int limit;
    private final LongSupplier lastIdReadHere;

    /** Reads at most {@code limit} events per cursor from {@code archive}; {@code lastIdReadHere} is the hub's newest id. */
    ArchivedCursors(EventArchive archive, int limit, LongSupplier lastIdReadHere) {
        this.archive = archive;
        this.limit = limit;
        this.lastIdReadHere = lastIdReadHere;
    }

    /** Reads the events after {@code cursor}; never fails (an unreadable archive is {@link Kind#UNAVAILABLE}). */
    CompletionStage<Resolution> resolve(long cursor) {
        CompletionStage<EventArchive.Read> read;
        try {
            read = archive.after(cursor, limit);
        } catch (RuntimeException brokenArchive) {
            read = CompletableFuture.failedFuture(brokenArchive);
        }
        return read.handle((log, failure) -> {
            if (failure != null) {
                LOG.debug("event archive unavailable for cursor {}: {}", cursor, failure.toString());
                return new Resolution(Kind.UNAVAILABLE, null);
            }
            if (!log.events().isEmpty()) {
                List<Event> events = log.events();
                return new Resolution(Kind.NEWS,
                        new EventBatch(events, events.get(0).id() != cursor + 1, events.get(events.size() - 1).id()));
            }
            return cursor <= log.newestId() && cursor >= lastIdReadHere.getAsLong()
                    ? new Resolution(Kind.WAIT, null) : new Resolution(Kind.RING, null);
        });
    }
}
