package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import io.dropwizard.jackson.Jackson;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The hub with an {@link EventArchive} (a shared stream's log), without a server: cursors older than the ring are
 * read from the archive, cursors above the newest event read here wait for it, and the parked count stays exact.
 */
class EventHubArchiveTest {

    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();
    private static final int RING = 4;

    private final HubMetrics metrics = new HubMetrics(new MetricRegistry());
    /** The shared log: every event ever published, from {@code firstKept} on. */
    private final List<Event> log = new ArrayList<>();
    private long firstKept = 1;
    private long numbered;
    private CompletableFuture<EventArchive.Read> nextRead;
    /** The stream's epoch, carried by the events delivered and the log's reads (null: a stream without epochs). */
    private String epoch;
    private final EventArchive archive = (topic, cursor, limit) -> read(cursor, limit);
    private final EventHub hub = Hubs.hub(RING, 100, Runnable::run, MAPPER, metrics, archive, System::nanoTime);

    @Test
    void aCursorOlderThanTheRingIsAnsweredFromTheArchiveWithoutMissed() throws IOException {
        publishAndDeliver(10);
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(2L), 60_000);
        assertThat(poll.status()).isEqualTo(200);
        assertThat(json(poll).get("missed").asBoolean()).isFalse();
        assertThat(ids(poll)).containsExactly(3L, 4L, 5L, 6L); // at most one ring's worth per answer
        assertThat(json(poll).get("lastId").asLong()).isEqualTo(6);
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void missedOnlyWhenTheArchiveTrimmedTheCursor() throws IOException {
        publishAndDeliver(10);
        firstKept = 5;
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(1L), 60_000);
        assertThat(json(poll).get("missed").asBoolean()).isTrue();
        assertThat(ids(poll)).startsWith(5L);
    }

    @Test
    void aCursorNumberedElsewhereButNotReadHereParksUntilTheReaderGetsPastIt() throws IOException {
        publishAndDeliver(3);
        numbered = 5; // events 4 and 5 are numbered (published elsewhere), this hub has read up to 3
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(5L), 60_000);
        assertThat(poll.completions()).isZero();
        assertThat(hub.parkedCount()).isEqualTo(1);

        deliver(4);
        deliver(5);
        assertThat(poll.completions()).as("events up to the cursor do not answer it").isZero();
        deliver(6);
        assertThat(poll.status()).isEqualTo(200);
        assertThat(ids(poll)).containsExactly(6L);
        assertThat(json(poll).get("missed").asBoolean()).isFalse();
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void aPollParkedAheadTimesOutAndLeavesNothingBehind() {
        publishAndDeliver(3);
        numbered = 5;
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(5L), 60_000);
        assertThat(hub.parkedCount()).isEqualTo(1);
        poll.timeout();
        assertThat(poll.status()).isEqualTo(204);
        assertThat(hub.parkedCount()).isZero();
        deliver(4);
        deliver(5);
        deliver(6);
        assertThat(poll.completions()).isEqualTo(1);
    }

    @Test
    void aCursorBeyondTheStreamsNewestIdKeepsTodaysContract() throws IOException {
        publishAndDeliver(6);
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(100L), 60_000);
        assertThat(poll.status()).isEqualTo(200);
        assertThat(json(poll).get("missed").asBoolean()).isTrue();
        assertThat(json(poll).get("lastId").asLong()).isEqualTo(6);
    }

    @Test
    void anUnreadableArchiveAnswers503ForAnOldCursorAndParksACursorAhead() {
        publishAndDeliver(10);
        nextRead = CompletableFuture.failedFuture(new IllegalStateException("Redis down"));
        RecordingDelivery old = new RecordingDelivery(true);
        hub.poll(old, Hubs.at(1L), 60_000);
        assertThat(old.status()).isEqualTo(503);
        assertThat(old.header("Retry-After")).isEqualTo("1");

        nextRead = CompletableFuture.failedFuture(new IllegalStateException("Redis down"));
        RecordingDelivery ahead = new RecordingDelivery(true);
        hub.poll(ahead, Hubs.at(11L), 60_000);
        assertThat(ahead.completions()).isZero();
        assertThat(hub.parkedCount()).isEqualTo(1);
        numbered = 12;
        deliver(11);
        deliver(12);
        assertThat(ahead.status()).isEqualTo(200);
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void anArchiveReadRacingThePollsTimeoutAnswersItOnce() {
        publishAndDeliver(10);
        nextRead = new CompletableFuture<>();
        CompletableFuture<EventArchive.Read> pending = nextRead;
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(1L), 60_000);
        poll.timeout();
        pending.complete(new EventArchive.Read(log.subList(1, 5), numbered));
        assertThat(poll.completions()).isEqualTo(1);
        assertThat(poll.status()).isEqualTo(204);
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void anArchiveReadOvertakenByTheReaderIsReadAgainNotAnsweredMissed() throws IOException {
        log.add(Hubs.event(1));
        numbered = 1; // the stream holds 1; this hub has read nothing of the topic yet, so the cursor goes to the archive
        nextRead = new CompletableFuture<>();
        CompletableFuture<EventArchive.Read> pending = nextRead;
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(1L), 60_000);
        // Meanwhile 2, 3 and 4 are published elsewhere, and the reader starts the topic at the stream's newest entry.
        log.add(Hubs.event(2));
        log.add(Hubs.event(3));
        numbered = 4;
        deliver(4);
        pending.complete(new EventArchive.Read(List.of(), 1)); // what the stream held when it was read
        assertThat(poll.status()).isEqualTo(200);
        assertThat(json(poll).get("missed").asBoolean()).as("2 and 3 are in the stream").isFalse();
        assertThat(ids(poll)).containsExactly(2L, 3L, 4L);
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void aWaitOvertakenByTheReadersPlacementIsReadAgainNotAnsweredMissed() throws IOException {
        // A poll of two topics, neither read here yet: each goes to the archive, and the poll is placed when both
        // answered. Topic a's answer comes first: nothing after 1, and this hub has read nothing, so wait after 1.
        // Before b's answer, 2, 3 and 4 are published elsewhere and the reader places a at the stream's newest
        // entry: a's ring starts at 4. The wait is stale, and 2 and 3 are in the stream: not "missed".
        List<Event> aLog = new ArrayList<>(List.of(Hubs.event("a", 1)));
        long[] aNumbered = {1};
        CompletableFuture<EventArchive.Read> aFirstRead = new CompletableFuture<>();
        CompletableFuture<EventArchive.Read> bRead = new CompletableFuture<>();
        List<CompletableFuture<EventArchive.Read>> aReads = new ArrayList<>(List.of(aFirstRead));
        EventArchive twoTopics = (topic, cursor, limit) -> {
            if (topic.equals("b")) {
                return bRead;
            }
            if (!aReads.isEmpty()) {
                return aReads.remove(0);
            }
            return CompletableFuture.completedFuture(new EventArchive.Read(
                    aLog.stream().filter(event -> event.id() > cursor).limit(limit).toList(), aNumbered[0]));
        };
        EventHub twoTopicHub = Hubs.hub(RING, 100, Runnable::run, MAPPER, metrics, twoTopics, System::nanoTime);
        RecordingDelivery poll = new RecordingDelivery(true);
        twoTopicHub.poll(poll, List.of(new TopicCursor("a", 1L), new TopicCursor("b", 0L)), 60_000);

        aFirstRead.complete(new EventArchive.Read(List.of(), 1));
        aLog.addAll(List.of(Hubs.event("a", 2), Hubs.event("a", 3), Hubs.event("a", 4)));
        aNumbered[0] = 4;
        twoTopicHub.accept(Hubs.event("a", 4));
        bRead.complete(new EventArchive.Read(List.of(), 0));

        assertThat(poll.status()).isEqualTo(200);
        assertThat(json(poll).get("missed").asBoolean()).as("2 and 3 are in the stream").isFalse();
        assertThat(ids(poll)).containsExactly(2L, 3L, 4L);
        assertThat(json(poll).get("cursors").get("a").asLong()).isEqualTo(4);
        assertThat(metrics.missed.getCount()).isZero();
        assertThat(twoTopicHub.parkedCount()).isZero();
    }

    @Test
    void aCursorOfAnotherEpochIsAnsweredMissedAtOnceWithTheStreamsEpoch() throws IOException {
        epoch = "e1";
        publishAndDeliver(5);
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, List.of(new TopicCursor(TopicNames.DEFAULT, 3L, "e0")), 60_000);
        assertToldAnotherHistory(poll, 5, "e1");
        assertThat(metrics.epochMismatches.getCount()).isEqualTo(1);
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void aTopicNotYetReadHereLearnsFromTheArchiveThatTheCursorsEpochIsGone() throws IOException {
        epoch = "e2";
        publishElsewhere(3);
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, List.of(new TopicCursor(TopicNames.DEFAULT, 1L, "e1")), 60_000); // events 2 and 3 are of e2
        assertToldAnotherHistory(poll, 3, "e2");
        assertThat(metrics.epochMismatches.getCount()).as("counted though the archive, not the ring, knew").isEqualTo(1);
    }

    @Test
    void aStreamRecreatedStartsTheRingOverAndAnswersEveryPollParkedOnItMissed() throws IOException {
        epoch = "e1";
        publishAndDeliver(5);
        RecordingDelivery atNewest = new RecordingDelivery(true);
        hub.poll(atNewest, List.of(new TopicCursor(TopicNames.DEFAULT, 5L, "e1")), 60_000);
        numbered = 7; // 6 and 7 numbered elsewhere, not read here yet: a poll after 7 waits
        RecordingDelivery ahead = new RecordingDelivery(true);
        hub.poll(ahead, Hubs.at(7L), 60_000);
        assertThat(hub.parkedCount()).isEqualTo(2);

        epoch = "e2"; // Redis lost the stream; the publisher's floor kept the ids going
        log.clear();
        deliver(6);
        for (RecordingDelivery poll : List.of(atNewest, ahead)) {
            assertThat(poll.status()).isEqualTo(200);
            assertThat(json(poll).get("missed").asBoolean()).as("event 6 does not follow event 5: another history").isTrue();
            assertThat(ids(poll)).containsExactly(6L);
            assertThat(json(poll).get("lastId").asLong()).isEqualTo(6);
            assertThat(json(poll).get("epoch").asText()).isEqualTo("e2");
        }
        assertThat(hub.parkedCount()).isZero();
        assertThat(metrics.epochRestarts.getCount()).isEqualTo(1);

        RecordingDelivery old = new RecordingDelivery(true);
        hub.poll(old, List.of(new TopicCursor(TopicNames.DEFAULT, 4L, "e1")), 60_000);
        assertToldAnotherHistory(old, 6, "e2");
    }

    @Test
    void aPollParkedInAnEpochTheRingNeverHeldIsAnsweredMissedWhenAnotherEpochArrives() throws IOException {
        epoch = "e1";
        publishElsewhere(3);
        // Nothing read here yet: the ring has no epoch, and the archive says both cursors are at e1's newest event.
        RecordingDelivery withoutEpoch = new RecordingDelivery(true);
        hub.poll(withoutEpoch, List.of(new TopicCursor(TopicNames.DEFAULT, 3L)), 60_000);
        RecordingDelivery inE1 = new RecordingDelivery(true);
        hub.poll(inE1, List.of(new TopicCursor(TopicNames.DEFAULT, 3L, "e1")), 60_000);
        assertThat(hub.parkedCount()).isEqualTo(2);

        epoch = "e2"; // the stream was recreated before its first event reached this instance
        log.clear();
        deliver(4);

        assertThat(json(inE1).get("missed").asBoolean()).as("event 4 of e2 does not follow event 3 of e1").isTrue();
        assertThat(ids(inE1)).containsExactly(4L);
        assertThat(json(inE1).get("epoch").asText()).isEqualTo("e2");
        assertThat(json(withoutEpoch).get("missed").asBoolean()).as("a cursor without an epoch is taken as of this history").isFalse();
        assertThat(ids(withoutEpoch)).containsExactly(4L);
        assertThat(metrics.epochMismatches.getCount()).isEqualTo(1);
        assertThat(hub.parkedCount()).isZero();
    }

    /** {@code poll} was answered at once: {@code missed}, no event (never one of another history), where to go on from. */
    private static void assertToldAnotherHistory(RecordingDelivery poll, long lastId, String epoch) throws IOException {
        assertThat(poll.status()).isEqualTo(200);
        assertThat(json(poll).get("missed").asBoolean()).isTrue();
        assertThat(ids(poll)).as("never events of another history").isEmpty();
        assertThat(json(poll).get("lastId").asLong()).isEqualTo(lastId);
        assertThat(json(poll).get("epoch").asText()).isEqualTo(epoch);
    }

    private CompletionStage<EventArchive.Read> read(long cursor, int limit) {
        if (nextRead != null) {
            CompletableFuture<EventArchive.Read> read = nextRead;
            nextRead = null;
            return read;
        }
        List<Event> after = log.stream()
                .filter(event -> event.id() > cursor && event.id() >= firstKept)
                .limit(limit)
                .toList();
        return CompletableFuture.completedFuture(new EventArchive.Read(after, numbered, epoch));
    }

    /** Events 1 to {@code count} of today's epoch in the log, none delivered to this hub (published by another instance). */
    private void publishElsewhere(long count) {
        numbered = count;
        LongStream.rangeClosed(1, count).forEach(id -> log.add(new Event(id, TopicNames.DEFAULT, Instant.EPOCH, LongNode.valueOf(id), epoch)));
    }

    private void publishAndDeliver(int count) {
        LongStream.rangeClosed(1, count).forEach(id -> {
            numbered = Math.max(numbered, id);
            deliver(id);
        });
    }

    private void deliver(long id) {
        Event event = new Event(id, TopicNames.DEFAULT, Instant.EPOCH, LongNode.valueOf(id), epoch);
        if (log.stream().noneMatch(e -> e.id() == id)) {
            log.add(event);
        }
        hub.accept(event);
    }

    private static JsonNode json(RecordingDelivery poll) throws IOException {
        return MAPPER.readTree(poll.body());
    }

    private static List<Long> ids(RecordingDelivery poll) throws IOException {
        List<Long> ids = new ArrayList<>();
        json(poll).get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }
}
