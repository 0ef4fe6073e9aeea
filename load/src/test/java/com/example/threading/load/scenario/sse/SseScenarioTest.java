package com.example.threading.load.scenario.sse;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sse scenario in a tiny configuration against the service jar: the batch side by side with figures from the server
 * and the client for both transports, a heap figure per protocol, and the rooms runs with every delivery checked and the
 * stalled reader shed. No time, ratio or heap goal is asserted: CI runs on a busy 2-core machine.
 */
class SseScenarioTest {

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void streamsBesideLongPollsWithHeapAndRoomsFigures(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "sse", "--streams", "50", "--http1-streams", "30", "--rounds", "2", "--warmup-rounds", "1",
                "--rooms", "10", "--readers-per-room", "5", "--rate", "50", "--duration", "8s", "--rooms-warmup", "2s", "--max-duration", "300s");
        JsonNode results = assertReportFiles(folder);
        String markdown = Files.readString(folder.resolve("report.md"));
        assertThat(markdown).contains(SseView.BATCH_TITLE, SseView.HEAP_TITLE, SseView.ROOMS_TITLE, "| cpu |",
                "| load average at start (1 / 5 / 15 min) |", "| service JDK |", "| stream readers |", "java -jar load/target/threading-load.jar sse");
        assertThat(folder.resolve("rooms-delivery-percentiles.png")).isNotEmptyFile();
        JsonNode sse = results.path("data").path("sse");

        JsonNode batch = sse.path("batch");
        for (String figure : new String[] {"sseServerLastWriteMedianMs", "longPollServerLastWriteMedianMs", "sseClientLastMedianMs",
                "longPollClientLastMedianMs", "serverRatio", "clientRatio"}) {
            assertThat(batch.path(figure).asDouble()).as(figure).isPositive();
        }
        for (String transport : new String[] {"sseRounds", "longPollRounds"}) {
            assertThat(batch.path(transport)).as(transport).hasSize(3);
            for (JsonNode round : batch.path(transport)) {
                assertThat(round.path("received").asInt()).as("%s round %s", transport, round.path("round")).isEqualTo(50);
                assertThat(round.path("serverLastWriteMs").asDouble()).isPositive();
                assertThat(round.path("clientLastMs").asDouble()).isPositive();
            }
        }

        JsonNode heap = sse.path("heap");
        assertThat(heap).hasSize(2);
        assertThat(heap.get(0).path("protocol").asText()).isEqualTo("h2c");
        assertThat(heap.get(1).path("protocol").asText()).isEqualTo("HTTP/1.1");
        assertThat(heap.get(1).path("streams").asInt()).isEqualTo(30);
        for (JsonNode protocol : heap) {
            assertThat(protocol.path("heapNoneMb").asDouble()).isPositive();
            assertThat(protocol.path("heapOpenMb").asDouble()).isPositive();
            assertThat(protocol.path("kibPerStream").isNumber()).isTrue();
        }

        JsonNode rooms = sse.path("rooms");
        assertThat(rooms.fieldNames()).toIterable().containsExactly("all readers read", "with one stalled reader");
        for (JsonNode run : rooms) {
            assertThat(run.path("readers").asInt()).isEqualTo(50);
            assertThat(run.path("published").asLong()).isPositive();
            assertThat(run.path("deliveries").asLong()).isEqualTo(run.path("expected").asLong()).isEqualTo(5 * run.path("published").asLong());
            assertThat(run.path("lost").asLong()).isZero();
            assertThat(run.path("duplicated").asLong()).isZero();
            assertThat(run.path("outOfOrder").asLong()).isZero();
            assertThat(run.path("checksPassed").asBoolean()).isTrue();
            assertThat(run.path("p99Ms").asDouble()).isPositive();
        }
        assertThat(rooms.path("all readers read").path("shedCount").asLong()).isZero();
        JsonNode stalled = rooms.path("with one stalled reader");
        assertThat(stalled.path("shedCount").asLong()).as("the stalled reader shed").isEqualTo(1);
        assertThat(stalled.path("shedAfterSeconds").asDouble()).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"http1, HTTP/1.1", "h2c, h2c"})
    void socketsBesideStreamsAndLongPollsWithHeapFigures(String socketProtocol, String label, @TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "sse", "--parts", "ws", "--sockets", "40", "--socket-protocol", socketProtocol, "--rounds", "2",
                "--warmup-rounds", "1", "--max-duration", "300s");
        JsonNode results = assertReportFiles(folder);
        assertThat(Files.readString(folder.resolve("report.md"))).contains("WebSocket beside SSE and the long-poll",
                "| WebSocket (GET /events/ws, " + label + ") | 40 |", "Server heap per idle socket, idle stream and parked long-poll");
        JsonNode websocket = results.path("data").path("sse").path("websocket");
        assertThat(websocket.path("clients").asInt()).isEqualTo(40);
        for (String figure : new String[] {"websocketServerRatio", "websocketClientRatio", "sseServerRatio", "sseClientRatio"}) {
            assertThat(websocket.path(figure).asDouble()).as(figure).isPositive();
        }
        for (String transport : new String[] {"webSocketRounds", "sseRounds", "longPollRounds"}) {
            assertThat(websocket.path(transport)).as(transport).hasSize(3);
            for (JsonNode round : websocket.path(transport)) {
                assertThat(round.path("received").asInt()).as("%s round %s", transport, round.path("round")).isEqualTo(40);
                assertThat(round.path("serverLastWriteMs").asDouble()).isPositive();
            }
        }
        JsonNode heap = websocket.path("heap");
        assertThat(heap).hasSize(3);
        assertThat(heap.get(0).path("protocol").asText()).isEqualTo("WebSocket (" + label + ")");
        assertThat(heap.get(1).path("protocol").asText()).isEqualTo("SSE stream (h2c)");
        assertThat(heap.get(2).path("protocol").asText()).isEqualTo("long-poll, parked (h2c)");
        for (JsonNode client : heap) {
            assertThat(client.path("streams").asInt()).isEqualTo(40);
            assertThat(client.path("heapOpenMb").asDouble()).isPositive();
        }
    }
}
