package com.example.threading.load.engine.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.service.Target;
import com.example.threading.load.service.TargetOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topics traffic over WebSockets ({@link TopicsTraffic.Transport#WS}) against the real service jar on loopback: 12
 * clients, each one socket of 3 of 6 rooms, while batches are posted as over long polls, or published on the members'
 * sockets. Every member gets every message of its rooms once and in order; when the server ends every socket at its
 * lifetime ({@code reconnect}, 1001) the members reopen from their last position and still get every message once and
 * in order, and the ends are counted. Needs {@code target/threading-reference.jar} (built at the repository's root;
 * {@link TargetOptions} says so when it is missing).
 */
class TopicsSocketsTest {

    private static final int CLIENTS = 12;

    @Test
    void everyMemberReadsEveryMessageOfItsRoomsOnceAndInOrderOnOneSocket(@TempDir Path logs) throws Exception {
        TopicsTraffic.Result result = run(logs, Map.of(), Duration.ofSeconds(3), TopicsTraffic.Publishing.BATCH);

        assertEveryMessageOnceInOrder(result);
        assertThat(result.sockets().connects()).as("one socket per client, none reopened").isEqualTo(CLIENTS);
        assertThat(result.sockets().ends()).as("no socket ended before the drain").isEmpty();
        assertThat(result.polls()).as("no long poll sent").isZero();
    }

    @Test
    void membersPublishingOnTheirOwnSocketsGetEachMessageAckedAndDeliveredOnceInOrder(@TempDir Path logs) throws Exception {
        TopicsTraffic.Result result = run(logs, Map.of(), Duration.ofSeconds(3), TopicsTraffic.Publishing.SOCKET);

        assertEveryMessageOnceInOrder(result);
        assertThat(result.publishMicros().getTotalCount()).as("every publish acked with its event's id")
                .isEqualTo(result.published());
        assertThat(result.sockets().connects()).as("the publishes went on the members' sockets, none reopened")
                .isEqualTo(CLIENTS);
    }

    @Test
    void socketsEndedAtTheirLifetimeReopenFromTheirPositionAndLoseNothing(@TempDir Path logs) throws Exception {
        // Every socket is ended with reconnect after 1 s, a few times in 4 s of publishing.
        TopicsTraffic.Result result = run(logs, Map.of("EVENTS_WS_MAX_LIFETIME", "1s", "EVENTS_WS_HEARTBEAT", "500ms"), Duration.ofSeconds(4),
                TopicsTraffic.Publishing.BATCH);

        assertEveryMessageOnceInOrder(result);
        assertThat(result.sockets().ends()).as("ended by the server's lifetime, with its final message").containsOnlyKeys("reconnect");
        assertThat(result.sockets().ends().get("reconnect")).isGreaterThanOrEqualTo(2L * CLIENTS);
        assertThat(result.sockets().connects()).as("each end followed by a socket from the last position")
                .isEqualTo(CLIENTS + result.sockets().ended());
    }

    private static TopicsTraffic.Result run(Path logs, Map<String, String> environment, Duration publishing,
                                            TopicsTraffic.Publishing how) throws Exception {
        try (Target service = new TargetOptions().open(logs, environment, List.of())) {
            TopicsTraffic.Plan plan = new TopicsTraffic.Plan(List.of(service.applicationUri()), "room-", CLIENTS, 6, 3, 50, 100, 10, how,
                    publishing, 2, TopicsTraffic.Transport.WS);
            return new TopicsTraffic(plan).run();
        }
    }

    private static void assertEveryMessageOnceInOrder(TopicsTraffic.Result result) {
        assertThat(result.transport()).isEqualTo(TopicsTraffic.Transport.WS);
        assertThat(result.published()).as("100 messages/s").isGreaterThanOrEqualTo(200);
        assertThat(result.publishFailures()).isZero();
        // 12 clients x 3 rooms over 6 rooms: 6 members per room.
        assertThat(result.expectedDeliveries()).isEqualTo(6 * result.published());
        assertThat(result.deliveries()).as("every member read every message of its rooms").isEqualTo(result.expectedDeliveries());
        assertThat(result.lost()).isZero();
        assertThat(result.duplicated()).isZero();
        assertThat(result.outOfOrder()).isZero();
        assertThat(result.missedAnswers()).isZero();
        assertThat(result.sockets().failedConnects()).isZero();
        assertThat(result.sockets().otherMessages()).isZero();
        assertThat(result.deliveryMicros().getTotalCount()).as("a latency per delivery").isEqualTo(result.deliveries());
    }
}
