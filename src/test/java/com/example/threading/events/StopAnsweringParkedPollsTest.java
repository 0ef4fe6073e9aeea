package com.example.threading.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.hub.BlockingWaits;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.HubMetrics;
import com.example.threading.events.hub.Hubs;
import com.example.threading.events.hub.RecordingDelivery;
import com.example.threading.events.hub.ShutdownSpread;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stop without a server: every parked poll of a hub is answered {@code 503} through {@link RecordingDelivery}s,
 * spread with rising {@code Retry-After}, and what others answered first is counted, not answered twice.
 */
class StopAnsweringParkedPollsTest {

    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();

    private final MetricRegistry registry = new MetricRegistry();
    private final HubMetrics metrics = new HubMetrics(registry);

    @Test
    void closingAnswersEveryParkedPollWith503AndTurnsLaterPollsAndWaitersAway() throws Exception {
        EventHub hub = Hubs.hub(16, 10, Runnable::run, MAPPER, metrics, null, System::nanoTime);
        List<RecordingDelivery> polls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RecordingDelivery poll = new RecordingDelivery(true);
            hub.poll(poll, Hubs.at(null), 60_000);
            polls.add(poll);
        }

        assertThat(new StopAnsweringParkedPolls(hub, new ShutdownSpread(0), 5_000, registry).answerAll()).isEqualTo(3);

        for (RecordingDelivery poll : polls) {
            assertThat(poll.status()).isEqualTo(503);
            assertThat(poll.header("Retry-After")).isEqualTo("0");
            assertThat(poll.header("Connection")).isEqualTo("close");
            assertThat(poll.completions()).isEqualTo(1);
        }
        assertThat(hub.parkedCount()).isZero();
        assertThat(registry.meter("events.shutdown-answers").getCount()).isEqualTo(3);
        RecordingDelivery late = new RecordingDelivery(true);
        hub.poll(late, Hubs.at(null), 60_000);
        assertThat(late.status()).isEqualTo(503);
        assertThat(hub.blockingWaits().await(Hubs.at(null), 30_000)).isSameAs(BlockingWaits.Outcome.CLOSED);
    }

    @Test
    void aSpreadShutdownAnswersInOrderWithRisingRetryAfterAndCountsWhatOthersAnswered() throws Exception {
        EventHub hub = Hubs.hub(16, 10, Runnable::run, MAPPER, metrics, null, System::nanoTime,
                new ShutdownSpread(1_000));
        List<RecordingDelivery> polls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RecordingDelivery poll = new RecordingDelivery(true);
            hub.poll(poll, Hubs.at(null), 60_000);
            polls.add(poll);
        }
        // Completed by the container behind the hub's back (as Jetty does with some failures): still parked, taken at the
        // stop, found complete at its slice.
        polls.get(1).complete();

        assertThat(new StopAnsweringParkedPolls(hub, new ShutdownSpread(1_000), 5_000, registry)
                .answerAll()).isEqualTo(3);

        assertThat(polls).extracting(RecordingDelivery::status).containsExactly(503, 0, 503, 503);
        // The k-th of the 4 taken gets Retry-After k * 2 / 4: 0, 0, 1, 1 (one of them went to the completed poll).
        assertThat(polls.get(1).header("Retry-After")).isNull();
        assertThat(List.of(polls.get(0), polls.get(2), polls.get(3))).extracting(poll -> poll.header("Retry-After"))
                .isSubsetOf("0", "1").contains("0", "1");
        assertThat(registry.meter("events.shutdown-answers").getCount()).isEqualTo(3);
        assertThat(registry.meter("events.shutdown.answered-otherwise").getCount()).isEqualTo(1);
        assertThat(registry.meter("events.shutdown.unfinished").getCount()).isZero();
        RecordingDelivery late = new RecordingDelivery(true);
        hub.poll(late, Hubs.at(null), 60_000);
        assertThat(late.status()).isEqualTo(503);
        assertThat(late.header("Retry-After")).as("the first request turned away after the stop").isEqualTo("0");
        assertThat(metrics.shutdownTurnedAway().getCount()).isEqualTo(1);
    }
}
