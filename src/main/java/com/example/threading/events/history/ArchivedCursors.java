package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared-stream path of a hub: the cursors it cannot answer from its ring, which are older than the ring holds,
 * above the newest event this instance has read on the topic (published elsewhere; its reader has not delivered it
 * yet), or the "next event" of a topic this instance has only just started to read (where is the stream now?).
 * {@link #read} sorts a poll's cursor under the hub's lock, {@link #ask} reads the stream's {@link EventArchive} for
 * the ones it cannot answer and hands the poll back to the hub with what the archive said ({@link ArchiveAnswer}). The
 * in-process hub has none of this: its ring is all the history there is.
 *
 * <p>Thread-safety: {@link #read} is called with the hub's lock held (it reads the topic's ring). {@link #resolve} and
 * {@link #ask} may be called from any thread; their stages complete on the archive's threads, which only read the
 * hub's newest id of the topic ({@code lastIdReadHere}, which takes the hub's lock) and then run the hub's callback.
 * {@code EventHubArchiveTest} pins its races with archive reads it completes by hand: one racing the poll's timeout,
 * others overtaken by the reader.
 */
public final class ArchivedCursors {

    private static final Logger LOG = LoggerFactory.getLogger(ArchivedCursors.class);

    private final EventArchive archive;
    private final int limit;
    private final ToLongFunction<String> lastIdReadHere;

    /** Reads at most {@code limit} events per cursor from {@code archive}; {@code lastIdReadHere} is the hub's newest id of a topic. */
    public ArchivedCursors(EventArchive archive, int limit, ToLongFunction<String> lastIdReadHere) {
        this.archive = archive;
        this.limit = limit;
        this.lastIdReadHere = lastIdReadHere;
    }

    /**
     * With the hub's lock held: what to do with the poll's cursor {@code asked} on a topic whose ring is
     * {@code history}, given what the archive said about it ({@code known}; null: not asked) and whether it may be
     * asked ({@code mayAsk}: false once it has been, so a poll is never sent round twice for the same cursor).
     */
    public CursorReading read(TopicCursor asked, EventHistory history, ArchiveAnswer known, boolean mayAsk) {
        long cursor = asked.after() == null ? history.lastId() : asked.after();
        if (!history.sameEpoch(asked)) {
            return new CursorReading.News(cursor, history.epochChanged()); // a cursor of the stream before it was recreated
        }
        if (known != null) {
            return readAnswered(asked, cursor, history, known);
        }
        // A topic whose ring has no event yet: where the stream is, only the archive knows.
        boolean unread = history.lastId() == 0;
        if (unread && mayAsk) {
            return new CursorReading.AskArchive(cursor, asked);
        }
        if (asked.after() == null || !history.hasNewsFor(cursor)) {
            return new CursorReading.Wait(cursor);
        }
        if (history.covers(cursor)) {
            return new CursorReading.News(cursor, history.after(cursor));
        }
        if (mayAsk) {
            return new CursorReading.AskArchive(cursor, asked);
        }
        if (cursor <= history.lastId()) {
            return new CursorReading.News(cursor, history.after(cursor)); // older than ring and archive: missed
        }
        return new CursorReading.Wait(cursor); // ahead of the reader: waits until it gets past the cursor
    }

    /** With the hub's lock held: the reading of a cursor the archive has answered ({@code known}). */
    private static CursorReading readAnswered(TopicCursor asked, long cursor, EventHistory history, ArchiveAnswer known) {
        if (known instanceof ArchiveAnswer.News news) {
            return new CursorReading.News(cursor, news.news());
        }
        if (known instanceof ArchiveAnswer.WaitAfter wait) {
            return readWait(asked.topic(), wait.cursor(), history);
        }
        if (known instanceof ArchiveAnswer.BeyondNewest beyond) {
            return new CursorReading.News(cursor, history.lastId() >= beyond.newestId()
                    ? history.after(cursor) : new EventBatch(List.of(), true, beyond.newestId(), beyond.epoch()));
        }
        // Unreadable: a cursor at or below the newest id read here needed the archive (the poll gets a 503 and
        // retries); the next event, or one ahead of this instance, is what the reader brings.
        return asked.after() != null && asked.after() <= history.lastId()
                ? new CursorReading.Unavailable(cursor) : new CursorReading.Wait(cursor);
    }

    /** The archive said "wait after {@code waitAfter}"; the reader may have got past it meanwhile. */
    private static CursorReading readWait(String topic, long waitAfter, EventHistory history) {
        if (waitAfter >= history.lastId()) {
            return new CursorReading.Wait(waitAfter);
        }
        if (history.covers(waitAfter)) {
            return new CursorReading.News(waitAfter, history.after(waitAfter));
        }
        // The reader placed the ring above the cursor (it starts at the stream's newest entry): what lies between is
        // in the stream, not missed. Read it from there.
        return new CursorReading.AskArchive(waitAfter, new TopicCursor(topic, waitAfter));
    }

    /**
     * Resolves every cursor of {@code asked} at the archive, then calls {@code placeAgain} once, on an archive thread,
     * with those resolutions added to {@code known}.
     */
    public void ask(List<TopicCursor> asked, Map<String, ArchiveAnswer> known, Consumer<Map<String, ArchiveAnswer>> placeAgain) {
        Map<String, ArchiveAnswer> resolutions = new HashMap<>(known);
        CompletableFuture<?>[] reads = new CompletableFuture<?>[asked.size()];
        for (int i = 0; i < asked.size(); i++) {
            TopicCursor topic = asked.get(i);
            reads[i] = resolve(topic).toCompletableFuture()
                    .thenAccept(answer -> {
                        synchronized (resolutions) {
                            resolutions.put(topic.topic(), answer);
                        }
                    });
        }
        CompletableFuture.allOf(reads).thenRun(() -> {
            Map<String, ArchiveAnswer> all;
            synchronized (resolutions) {
                all = Map.copyOf(resolutions);
            }
            placeAgain.accept(all);
        });
    }

    /**
     * Reads the events of {@code asked}'s topic after its cursor, or, for a null cursor (the next event), where the topic
     * is now; never fails (an unreadable archive is {@link ArchiveAnswer.Unreadable}). A cursor of another epoch than
     * the stream's (read before the stream was recreated) is answered missed.
     */
    CompletionStage<ArchiveAnswer> resolve(TopicCursor asked) {
        return resolve(asked, true);
    }

    private CompletionStage<ArchiveAnswer> resolve(TopicCursor asked, boolean mayReadAgain) {
        Long cursor = asked.after();
        CompletionStage<EventArchive.Read> read;
        try {
            read = archive.after(asked.topic(), cursor == null ? 0 : cursor, cursor == null ? 0 : limit);
        } catch (RuntimeException brokenArchive) {
            read = CompletableFuture.failedFuture(brokenArchive);
        }
        return read.handle((log, failure) -> decide(asked, log, failure, mayReadAgain))
                .thenCompose(Function.identity());
    }

    private CompletionStage<ArchiveAnswer> decide(TopicCursor asked, EventArchive.Read log, Throwable failure,
                                                  boolean mayReadAgain) {
        String topic = asked.topic();
        Long cursor = asked.after();
        if (failure != null) {
            LOG.debug("event archive unavailable for {} after {}: {}", topic, cursor, failure.toString());
            return CompletableFuture.completedFuture(new ArchiveAnswer.Unreadable());
        }
        if (cursor == null) {
            return CompletableFuture.completedFuture(new ArchiveAnswer.WaitAfter(log.newestId())); // the next event after the newest
        }
        if (asked.otherEpochThan(log.epoch())) {
            return CompletableFuture.completedFuture(new ArchiveAnswer.News(
                    new EventBatch(List.of(), true, log.newestId(), log.epoch()))); // read before the stream was recreated
        }
        if (!log.events().isEmpty()) {
            List<Event> events = log.events();
            return CompletableFuture.completedFuture(new ArchiveAnswer.News(new EventBatch(events,
                    events.get(0).id() != cursor + 1, events.get(events.size() - 1).id(), log.epoch())));
        }
        long readHere = lastIdReadHere.applyAsLong(topic);
        if (cursor <= log.newestId() && cursor >= readHere) {
            return CompletableFuture.completedFuture(new ArchiveAnswer.WaitAfter(cursor));
        }
        if (cursor < readHere && mayReadAgain) {
            // Nothing after the cursor when the stream was read, yet this instance has read past it since: published
            // meanwhile, and the reader may have started the topic's ring above the cursor. Read again, or the
            // poll would be answered "missed" for events the stream holds.
            return resolve(asked, false);
        }
        return CompletableFuture.completedFuture(new ArchiveAnswer.BeyondNewest(Math.max(log.newestId(), readHere), log.epoch()));
    }
}
