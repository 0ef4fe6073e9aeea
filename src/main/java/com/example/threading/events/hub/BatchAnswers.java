package com.example.threading.events.hub;

import com.example.threading.events.history.EventBatch;
import com.example.threading.events.history.PollAnswer;
import com.example.threading.events.history.TopicCursor;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Answers the polls that an event, or events published together, took out of their topics, after handing the standing
 * polls ({@link FollowedEvents}) their news: each is offered the news after its cursors through its
 * {@link Delivery}, claimed at write time for the batch ({@link BatchTiming}, which also times the batch's last write).
 * The polls of one batch usually share their cursors, so each answer is serialized once per distinct cursors (with the
 * epochs they were asked in: a cursor of another history is answered missed). Holds no state of its own: the hub's
 * dispatcher runs {@link #answer}, which has the hub read the histories under its lock ({@link Reader}, with
 * {@link #read}) and offers the answers outside it.
 */
final class BatchAnswers {

    private final Reader reader;
    private final PollClaims claims;
    private final NewsJson json;
    private final HubMetrics metrics;
    private final LongSupplier nanoClock;
    private final Consumer<ParkedPoll> askArchive;

    /**
     * Answers from the histories {@code reader} reads; a poll whose cursor a ring no longer covers goes to
     * {@code askArchive} (null without a shared stream: the ring is all the history there is, and an old cursor is
     * answered missed).
     */
    BatchAnswers(Reader reader, PollClaims claims, NewsJson json, HubMetrics metrics, LongSupplier nanoClock,
                 Consumer<ParkedPoll> askArchive) {
        this.reader = reader;
        this.claims = claims;
        this.json = json;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.askArchive = askArchive;
    }

    /**
     * Offers each poll of {@code batch} its news, and hands the standing polls theirs ({@code followed}); the events
     * arrived at {@code arrivedNanos}, and started the rings of the topics in {@code startedOver} over. Never blocks on a
     * client.
     */
    void answer(Collection<ParkedPoll> batch, FollowedEvents followed, long arrivedNanos, Set<String> startedOver) {
        BatchTiming timing = new BatchTiming(batch.size() + followed.offers(), arrivedNanos, nanoClock,
                metrics.eventToLastWrite);
        followed.offer(timing, () -> timing.completed(true));
        Map<Object, CursorsNews> shared = new HashMap<>();
        for (ParkedPoll poll : batch) {
            if (!poll.watch(timing)) {
                timing.completed(false); // already complete (timed out or failed): nothing to answer
                continue;
            }
            // What the answer depends on: the cursors, with the epochs sent (a list per poll) only by polls that sent any.
            Object key = poll.sentEpochs() ? poll.cursorsNow() : poll.cursors();
            CursorsNews news = shared.computeIfAbsent(key, cursors -> readNews(poll, poll.cursorsNow(), startedOver));
            if (news == null) {
                askArchive.accept(poll); // a burst moved a ring past the cursor before the batch got here
                continue;
            }
            if (news.missed()) {
                metrics.missed.mark();
            }
            if (news.otherEpoch()) {
                metrics.epochMismatches.mark();
            }
            poll.delivery().offer(news.answer(), () -> claims.claim(poll, timing));
        }
        metrics.eventToQueued.update(nanoClock.getAsLong() - arrivedNanos, TimeUnit.NANOSECONDS);
    }

    /** A serialized answer, shared by the polls of a batch with the same cursors, and what each of them counts. */
    private record CursorsNews(Answer.News answer, boolean missed, boolean otherEpoch) {
    }

    /**
     * The answer to a poll after {@code cursors}, shared by the polls of the batch with the same cursors; null when a
     * ring no longer covers one and the archive must.
     */
    private CursorsNews readNews(ParkedPoll poll, List<TopicCursor> cursors, Set<String> startedOver) {
        Reading reading = reader.read(cursors, startedOver, askArchive != null);
        if (reading == null) {
            return null;
        }
        Object answer = PollAnswer.of(poll.asked(), poll.cursors(), reading.news());
        return new CursorsNews(json.of(answer), reading.news().values().stream().anyMatch(EventBatch::missed),
                reading.otherEpoch());
    }

    /** The hub's reading of its histories for a batch's poll, under its lock ({@link BatchAnswers#read}). */
    @FunctionalInterface
    interface Reader {
        /** What {@link BatchAnswers#read} says of {@code cursors}, read with the hub's lock held. */
        Reading read(List<TopicCursor> cursors, Set<String> startedOver, boolean archived);
    }

    /** The news of a poll's topics after its cursors, and whether a cursor was of another epoch than its ring's. */
    record Reading(Map<String, EventBatch> news, boolean otherEpoch) {
    }

    /**
     * With the hub's lock held: the news of {@code topics} after {@code cursors} (on a topic of {@code startedOver}, or
     * a cursor of another epoch than its ring's: missed); null when a ring no longer covers one and, {@code archived},
     * the archive must.
     */
    static Reading read(Topics topics, List<TopicCursor> cursors, Set<String> startedOver, boolean archived) {
        Map<String, EventBatch> news = new LinkedHashMap<>();
        boolean otherEpoch = false;
        for (TopicCursor cursor : cursors) {
            Topic topic = topics.get(cursor.topic());
            if (topic == null) {
                continue;
            }
            if (startedOver.contains(cursor.topic())) {
                news.put(cursor.topic(), topic.history().startedOver());
                continue;
            }
            if (!topic.history().sameEpoch(cursor)) {
                // Parked on a ring without an epoch yet, in one its first event did not bring: the stream was
                // recreated between the archive's reading and that event. Every event held is of the new history.
                otherEpoch = true;
                news.put(cursor.topic(), topic.history().startedOver());
                continue;
            }
            if (!topic.history().hasNewsFor(cursor.after())) {
                continue;
            }
            if (archived && !topic.history().covers(cursor.after())) {
                return null;
            }
            news.put(cursor.topic(), topic.history().after(cursor.after()));
        }
        return new Reading(news, otherEpoch);
    }
}
