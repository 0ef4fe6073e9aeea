package com.example.threading.load.scenario.topics;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.example.threading.load.LoadTool;
import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
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

    /**
     * Redis's reply to a publish or a history read may wait for the CPU on a busy 2-core machine; past the command
     * timeout (1 s by default) the service answers 503 although the script may have run (a documented ambiguity), and the
     * counts below would then depend on the machine's load. These tests check delivery, not Redis's latency: 8 s, under
     * the tool's 10 s request timeout.
     */
    private static final String[] REDIS_TIMEOUTS = {"EVENTS_REDIS_COMMAND_TIMEOUT=8s", "EVENTS_PUBLISH_TIMEOUT=8s"};

    @Test
    void everyMemberGetsEveryMessageOfItsRoomsOnceInOrderInProcessAndOnRedis(@TempDir Path out) throws Exception {
        int port = freePort();
        RedisServer redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        redis.start();
        try {
            Path folder = ReportAssertions.run(out, "topics", "--clients", "20", "--rooms", "5", "--rooms-per-client", "3", "--rate", "50",
                    "--duration", "3s", "--warmup", "2s", "--poll-timeout", "2", "--streams", "in-process,redis", "--redis-uri", "redis://127.0.0.1:" + port,
                    "--env", REDIS_TIMEOUTS[0], "--env", REDIS_TIMEOUTS[1], "--max-duration", "150s");
            JsonNode results = assertReportFiles(folder);
            assertThat(folder.resolve("delivery-percentiles.png")).isNotEmptyFile();
            assertThat(results.path("configuration").path("batch size").asInt()).as("CometD's batches of 10 by default").isEqualTo(10);
            assertThat(results.path("configuration").path("publish").asText()).as("each in one request, by default")
                    .isEqualTo("one POST /events/batch per batch");
            JsonNode topics = results.path("data").path("topics");
            assertThat(topics.fieldNames()).toIterable().containsExactly("in-process, 1 instance", "redis, 2 instances");
            // Each phase warmed up on other rooms first; the counts below are the measured run's alone.
            assertThat(results.path("notes").toString()).contains("in-process, 1 instance: warm-up on other rooms for 2 s")
                    .contains("redis, 2 instances: warm-up on other rooms for 2 s");
            assertThat(results.path("notes").toString().contains("its clients (the JDK's HttpClient) then add most of the latency"))
                    .as("the report says when the tool's own JDK makes its latency figures the tool's")
                    .isEqualTo(Runtime.version().feature() < TopicsScenario.MEASURING_JDK);
            assertEveryMemberGotEveryMessageOnce(topics);
        } finally {
            redis.stop();
        }
    }

    @Test
    void everyMemberGetsEveryMessageOfItsRoomsOnceInOrderOnARedisCluster(@TempDir Path out) throws Exception {
        requireRedis7();
        Path folder = ReportAssertions.run(out, "topics", "--clients", "20", "--rooms", "5", "--rooms-per-client", "3", "--rate", "50",
                "--duration", "3s", "--warmup", "2s", "--poll-timeout", "2", "--streams", "redis-cluster", "--env", REDIS_TIMEOUTS[0], "--env", REDIS_TIMEOUTS[1],
                "--publish", "each", "--max-duration", "150s");
        JsonNode results = assertReportFiles(folder);
        assertThat(results.path("configuration").path("publish").asText()).isEqualTo("one POST /events per message");
        JsonNode topics = results.path("data").path("topics");
        assertThat(topics.fieldNames()).toIterable().containsExactly("redis cluster, 3 masters, 2 instances");
        assertThat(results.path("environment").toString()).contains("a cluster of 3 masters");
        assertEveryMemberGotEveryMessageOnce(topics);
    }

    @Test
    void overWebSocketsEveryMemberGetsEveryMessageOnceInOrderAndTheReportNamesTheTransport(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "topics", "--transport", "ws", "--clients", "20", "--rooms", "5", "--rooms-per-client", "3",
                "--rate", "50", "--duration", "3s", "--warmup", "1s", "--poll-timeout", "2", "--streams", "in-process", "--max-duration", "120s");
        JsonNode results = assertReportFiles(folder);
        assertThat(results.path("configuration").path("transport").asText()).isEqualTo("ws");
        JsonNode phase = results.path("data").path("topics").path("in-process, 1 instance");
        assertThat(phase.path("transport").asText()).isEqualTo("ws");
        assertThat(phase.path("socketConnects").asLong()).as("one socket per client").isEqualTo(20);
        assertThat(phase.path("socketEnds").size()).as("no socket ended before the drain").isZero();
        assertThat(phase.path("polls").asLong()).isZero();
        String markdown = Files.readString(folder.resolve("report.md"));
        assertThat(markdown).contains("members on one WebSocket each (GET /events/ws)").contains("Topics: the members' sockets");
        assertEveryMessageOnceInOrder("in-process, 1 instance (ws)", phase);
    }

    @Test
    void aTransportOtherThanLongPollOrWsIsRefused(@TempDir Path out) {
        assertThat(LoadTool.run("topics", "--transport", "sse", "--out", out.toString(), "--no-progress",
                "--streams", "in-process")).isNotZero();
    }

    private static void assertEveryMemberGotEveryMessageOnce(JsonNode topics) {
        topics.fields().forEachRemaining(phase -> {
            JsonNode p = phase.getValue();
            String name = phase.getKey();
            assertEveryMessageOnceInOrder(name, p);
            assertThat(p.path("refusedPolls").asLong()).as(name).isZero();
            assertThat(p.path("failedPolls").asLong()).as(name).isZero();
            // The server's own batches over the measured run, read off /prometheus: events that found parked polls.
            assertThat(p.path("serverBatches").asLong()).as(name).isPositive();
            assertThat(p.path("serverBatchLastWriteP99AtMostMs").asDouble()).as(name).isPositive();
            assertThat(p.path("publishP99Ms").asDouble()).as(name).isPositive();
            // From the real send, as CometD's benchmark measures: never after the intended send, so never longer.
            assertThat(p.path("p99FromSendMs").asDouble()).as(name).isPositive().isLessThanOrEqualTo(p.path("p99Ms").asDouble());
            assertThat(p.path("p50FromSendMs").asDouble()).as(name).isPositive().isLessThanOrEqualTo(p.path("p50Ms").asDouble());
        });
    }

    /** Published, none refused, and every member got every message of its rooms once and in order. */
    private static void assertEveryMessageOnceInOrder(String name, JsonNode p) {
        assertThat(p.path("published").asLong()).as(name).isGreaterThan(100);
        assertThat(p.path("publishFailures").asLong()).as(name).isZero();
        // 20 clients x 3 rooms over 5 rooms: 12 members per room, so every message is 12 deliveries.
        assertThat(p.path("expectedDeliveries").asLong()).as(name).isEqualTo(12 * p.path("published").asLong());
        assertThat(p.path("deliveries").asLong()).as(name).isEqualTo(p.path("expectedDeliveries").asLong());
        assertThat(p.path("lost").asLong()).as(name).isZero();
        assertThat(p.path("duplicated").asLong()).as(name).isZero();
        assertThat(p.path("outOfOrder").asLong()).as(name).isZero();
    }

    /** redis-server 7 on the PATH (the cluster phase announces with SPUBLISH): CI fails without it, elsewhere the test is skipped. */
    private static void requireRedis7() throws InterruptedException {
        String version;
        try {
            Process process = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
            version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
        } catch (IOException notInstalled) {
            version = "";
        }
        if (!version.matches("(?s).*\\bv=([7-9]|[1-9][0-9])\\..*")) {
            String message = "redis-server 7 or newer is not on the PATH (apt-get install -y redis-server; .ci/run installs it): "
                    + (version.isBlank() ? "none" : version.strip());
            if ("true".equals(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort("SKIPPED: " + message);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
