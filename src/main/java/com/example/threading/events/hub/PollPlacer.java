package com.example.threading.events.hub;

import com.example.threading.events.history.ArchiveAnswer;
import com.example.threading.events.history.ArchivedCursors;
import com.example.threading.events.history.CursorReading;
import com.example.threading.events.history.EventBatch;
import com.example.threading.events.history.PollAnswer;
import com.example.threading.events.history.TopicCursor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides what happens to a poll the hub places: it reads each topic the poll asks for (creating the topic if needed)
 * and answers it at once with news, refuses it (a topic too many, the history unreadable, the hub full), sends its
 * cursors to a shared stream's archive first, or parks it on each of its topics. Counts what it decided. The hub
 * calls it only with its lock held, which guards the topics it passes in, so a poll it parks is in every one of its
 * topics' parked polls before the lock is released.
 */
final class PollPlacer {

    private final ArchivedCursors archived;
    private final PollClaims claims;
    private final HubMetrics metrics;
    private final int maxParked;

    /** Places polls, asking {@code archived} (null: no shared stream) for what a ring cannot answer. */
    PollPlacer(ArchivedCursors archived, PollClaims claims, HubMetrics metrics, int maxParked) {
        this.archived = archived;
        this.claims = claims;
        this.metrics = metrics;
        this.maxParked = maxParked;
    }

    /**
     * With the hub's lock held: what to do with {@code poll} on {@code topics}, given what the archive said about
     * some of its topics
     * ({@code fromArchive}) and whether a cursor a ring cannot answer may go to the archive ({@code mayAskArchive}).
     */
    Placement place(Topics topics, ParkedPoll poll, Map<String, ArchiveAnswer> fromArchive, boolean mayAskArchive,
                    long nowNanos) {
        Map<String, Long> cursors = new LinkedHashMap<>();
        Map<String, EventBatch> news = new LinkedHashMap<>();
        List<TopicCursor> askArchive = new ArrayList<>();
        for (TopicCursor asked : poll.asked()) {
            Topic topic = topics.use(asked.topic(), nowNanos);
            if (topic == null) {
                return new Placement.Refused(new Answer.Refused("too many topics (" + topics.max() + " held), retry later"));
            }
            CursorReading reading = archived == null ? topic.history().read(asked)
                    : archived.read(asked, topic.history(), fromArchive.get(asked.topic()), mayAskArchive);
            if (reading instanceof CursorReading.News found && asked.otherEpochThan(found.news().epoch())) {
                metrics.epochMismatches.mark(); // a cursor of an earlier history (the ring or the archive said so): missed
            }
            if (reading instanceof CursorReading.Unavailable) {
                return new Placement.Refused(new Answer.Refused("the event history is unavailable, retry later"));
            }
            cursors.put(asked.topic(), reading.cursor());
            if (reading instanceof CursorReading.News found) {
                news.put(asked.topic(), found.news());
            } else if (reading instanceof CursorReading.AskArchive ask) {
                askArchive.add(ask.asked());
            }
        }
        if (!askArchive.isEmpty()) {
            return new Placement.AskArchive(askArchive);
        }
        if (!news.isEmpty()) {
            metrics.answeredAtOnce.mark();
            if (news.values().stream().anyMatch(EventBatch::missed)) {
                metrics.missed.mark();
            }
            return new Placement.News(PollAnswer.of(poll.asked(), cursors, news));
        }
        if (claims.parkedCount() >= maxParked) {
            metrics.rejected.mark();
            return new Placement.Refused(new Answer.Refused("too many parked polls (" + maxParked + "), retry later"));
        }
        if (poll.markParked(Map.copyOf(cursors))) { // false: its deadline or a failure claimed it meanwhile
            cursors.keySet().forEach(name -> topics.get(name).parked().add(poll));
            claims.parked();
        }
        return new Placement.Parked();
    }
}
