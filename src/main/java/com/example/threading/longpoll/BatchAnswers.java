package com.example.threading.longpoll;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Answers the polls one event took out of its topic: each is offered the news after its cursors through its
 * {@link Delivery}, claimed at write time for the batch ({@link BatchTiming}, which also times the batch's last write).
 * The polls of one event usually share their cursors, so each answer is serialized once per distinct cursors.
 *
 * <p>Thread-safety: {@link #answer} runs on the hub's one dispatcher thread, one batch after the other; it reads the
 * histories under the hub's lock ({@code topics}' guard) and offers the answers outside it.
 */
final class BatchAnswers {

    private final ReentrantLock lock;
    @GuardedBy("lock")
    private final Topics topics;
    private final PollClaims claims;
    private final JsonResponses json;
    private final LongPollMetrics metrics;
    private final LongSupplier nanoClock;
    private final Consumer<ParkedPoll> askArchive;

    /**
     * Answers from {@code topics}' histories; a poll whose cursor a ring no longer covers goes to {@code askArchive}
     * (null without a shared stream: the ring is all the history there is, and an old cursor is answered missed).
     */
    BatchAnswers(Topics topics, PollClaims claims, JsonResponses json, LongPollMetrics metrics, LongSupplier nanoClock,
                 Consumer<ParkedPoll> askArchive) {
        this.lock = topics.guard();
        this.topics = topics;
        this.claims = claims;
        this.json = json;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.askArchive = askArchive;
    }

    /**
     * Offers each poll of {@code batch} its news; the event arrived at {@code arrivedNanos}, and started its topic's ring
     * over when {@code startedOver} names it (null: it did not). Never blocks on a client.
     */
    void answer(Collection<ParkedPoll> batch, long arrivedNanos, String startedOver) {
        BatchTiming timing = new BatchTiming(batch.size(), arrivedNanos, nanoClock, metrics.eventToLastWrite);
        Map<Map<String, Long>, Answer.News> newsByCursors = new HashMap<>();
        for (ParkedPoll poll : batch) {
            if (!poll.watch(timing)) {
                timing.completed(false); // already complete (timed out or failed): nothing to answer
                continue;
            }
            Answer.News news = newsByCursors.computeIfAbsent(poll.cursors(), cursors -> news(poll, startedOver));
            if (news == null) {
                askArchive.accept(poll); // a burst moved a ring past the cursor before the batch got here
                continue;
            }
            poll.delivery().offer(news, () -> claims.claim(poll, timing));
        }
        metrics.eventToQueued.update(nanoClock.getAsLong() - arrivedNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The answer to a poll after its cursors (on topic {@code startedOver}, a cursor of the history before: missed); null
     * when a ring no longer covers one and the archive must.
     */
    private Answer.News news(ParkedPoll poll, String startedOver) {
        Map<String, EventBatch> news = new LinkedHashMap<>();
        lock.lock();
        try {
            for (Map.Entry<String, Long> cursor : poll.cursors().entrySet()) {
                Topic topic = topics.get(cursor.getKey());
                if (topic != null && cursor.getKey().equals(startedOver)) {
                    news.put(cursor.getKey(), topic.history().startedOver());
                    continue;
                }
                if (topic == null || !topic.history().hasNewsFor(cursor.getValue())) {
                    continue;
                }
                if (askArchive != null && !topic.history().covers(cursor.getValue())) {
                    return null;
                }
                news.put(cursor.getKey(), topic.history().after(cursor.getValue()));
            }
        } finally {
            lock.unlock();
        }
        if (news.values().stream().anyMatch(EventBatch::missed)) {
            metrics.missed.mark();
        }
        Object answer = PollAnswer.of(poll.asked(), poll.cursors(), news);
        return new Answer.News(answer, json.bytes(answer));
    }
}
