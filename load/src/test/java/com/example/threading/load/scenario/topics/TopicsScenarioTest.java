package com.example.threading.load.scenario.topics;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.embedded.RedisServer;

/**
 * The topics scenario in a tiny configuration (20 clients, 5 rooms, 3 each), in-process and on two instances sharing a
 * Redis the test starts from embedded-redis's binary: every member gets every message of its rooms once and in order.
 * No latency or rate is asserted (those are the benchmark's, not the test's).
 */
class TopicsScenarioTest {

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void everyMemberGetsEveryMessageOfItsRoomsOnceInOrderInProcessAndOnRedis(@TempDir Path out) throws Exception {
        int port = freePort();
        RedisServer redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        redis.start();
        try {
            Path folder = ReportAssertions.run(out, "topics", "--clients", "20", "--rooms", "5", "--rooms-per-client", "3", "--rate", "50",
                    "--duration", "3s", "--poll-timeout", "2", "--redis-uri", "redis://127.0.0.1:" + port, "--max-duration", "150s");
            JsonNode results = assertReportFiles(folder);
            assertThat(folder.resolve("delivery-percentiles.png")).isNotEmptyFile();
            JsonNode topics = results.path("data").path("topics");
            assertThat(topics.fieldNames()).toIterable().containsExactly("in-process, 1 instance", "redis, 2 instances");
            topics.fields().forEachRemaining(phase -> {
                JsonNode p = phase.getValue();
                String name = phase.getKey();
                assertThat(p.path("published").asLong()).as(name).isGreaterThan(100);
                assertThat(p.path("publishFailures").asLong()).as(name).isZero();
                // 20 clients x 3 rooms over 5 rooms: 12 members per room, so every message is 12 deliveries.
                assertThat(p.path("expectedDeliveries").asLong()).as(name).isEqualTo(12 * p.path("published").asLong());
                assertThat(p.path("deliveries").asLong()).as(name).isEqualTo(p.path("expectedDeliveries").asLong());
                assertThat(p.path("lost").asLong()).as(name).isZero();
                assertThat(p.path("duplicated").asLong()).as(name).isZero();
                assertThat(p.path("outOfOrder").asLong()).as(name).isZero();
                assertThat(p.path("refusedPolls").asLong()).as(name).isZero();
                assertThat(p.path("failedPolls").asLong()).as(name).isZero();
            });
        } finally {
            redis.stop();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
