package com.example.threading.load.engine.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ForcedGcTest {

    @Test
    void asksAgainWhenTheServicesFullCollectionCountDidNotMove() throws Exception {
        // The first System.gc() is skipped (as G1 does while the GC locker is held), the second one collects.
        ForcedGc.Reading reading = oneReadingFrom(asks -> asks >= 2 ? 1 : 0);

        assertThat(reading.ok()).as("%s", reading).isTrue();
        assertThat(reading.asks()).isEqualTo(2);
        assertThat(reading.fullCollections()).isEqualTo(1.0);
        assertThat(reading.heapUsedMb()).isEqualTo(50.0);
        assertThat(reading.oldGenMb()).isEqualTo(40.0);
    }

    @Test
    void aServiceThatNeverCollectsGivesAFailedReadingAfterTheLastAsk() throws Exception {
        ForcedGc.Reading reading = oneReadingFrom(asks -> 0);

        assertThat(reading.ok()).isFalse();
        assertThat(reading.asks()).isEqualTo(ForcedGc.MAX_ASKS);
        assertThat(reading.failure()).contains("did not collect in " + ForcedGc.MAX_ASKS + " asks");
    }

    /** One forced collection against a minimal admin connector whose full-collection count is {@code countAfter(asks so far)}. */
    private static ForcedGc.Reading oneReadingFrom(java.util.function.IntUnaryOperator countAfter) throws Exception {
        AtomicInteger asks = new AtomicInteger();
        HttpServer admin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        admin.createContext("/tasks/gc", exchange -> {
            int status = "POST".equals(exchange.getRequestMethod()) ? 200 : 405;
            if (status == 200) {
                asks.incrementAndGet();
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        admin.createContext("/metrics", exchange -> {
            byte[] body = ("{\"gauges\":{\"jvm.memory.heap.used\":{\"value\":52428800},\"jvm.memory.pools.G1-Old-Gen.used\":"
                    + "{\"value\":41943040},\"jvm.gc.G1-Old-Generation.count\":{\"value\":" + countAfter.applyAsInt(asks.get()) + "}}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        admin.start();
        ForcedGc forced = ForcedGc.every(URI.create("http://127.0.0.1:" + admin.getAddress().getPort()), Duration.ZERO,
                Duration.ofHours(1), () -> 7.0);
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (forced.readings().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } finally {
            forced.close();
            admin.stop(0);
        }
        List<ForcedGc.Reading> readings = forced.readings();
        assertThat(readings).hasSize(1);
        assertThat(readings.get(0).atSeconds()).isEqualTo(7.0);
        return readings.get(0);
    }

    @Test
    void readsTheHeapAndTheOldGenerationPoolAfterAForcedCollection() {
        String metrics = """
                {"gauges":{"jvm.memory.heap.used":{"value":52428800},"jvm.memory.pools.G1-Old-Gen.used":{"value":41943040},
                           "jvm.memory.pools.G1-Eden-Space.used":{"value":1048576},
                           "jvm.gc.G1-Old-Generation.count":{"value":4}}}
                """;

        ForcedGc.Reading reading = ForcedGc.reading(61.5, 2, 120, metrics);

        assertThat(reading.ok()).isTrue();
        assertThat(reading.atSeconds()).isEqualTo(61.5);
        assertThat(reading.asks()).isEqualTo(2);
        assertThat(reading.taskMs()).isEqualTo(120.0);
        assertThat(reading.heapUsedMb()).isEqualTo(50.0);
        assertThat(reading.oldGenMb()).isEqualTo(40.0);
        assertThat(reading.fullCollections()).isEqualTo(4.0);
    }

    @Test
    void findsTheOldGenerationUnderOtherCollectorsNamesAndDoesWithoutIt() {
        String serial = """
                {"gauges":{"jvm.memory.heap.used":{"value":10485760},"jvm.memory.pools.Tenured-Gen.used":{"value":5242880}}}
                """;
        assertThat(ForcedGc.reading(0, 1, 1, serial).oldGenMb()).isEqualTo(5.0);

        ForcedGc.Reading noPools = ForcedGc.reading(0, 1, 1, "{\"gauges\":{\"jvm.memory.heap.used\":{\"value\":10485760}}}");
        assertThat(noPools.ok()).isTrue();
        assertThat(noPools.heapUsedMb()).isEqualTo(10.0);
        assertThat(noPools.oldGenMb()).isNaN();
    }

    @Test
    void countsFullCollectionsUnderTheCollectorsNamesSoASkippedSystemGcIsSeen() {
        assertThat(ForcedGc.fullCollections("{\"gauges\":{\"jvm.gc.G1-Young-Generation.count\":{\"value\":90},"
                + "\"jvm.gc.G1-Old-Generation.count\":{\"value\":3}}}")).isEqualTo(3.0);
        assertThat(ForcedGc.fullCollections("{\"gauges\":{\"jvm.gc.MarkSweepCompact.count\":{\"value\":7}}}")).isEqualTo(7.0);
        assertThat(ForcedGc.fullCollections("{\"gauges\":{}}")).isNaN();
    }

    @Test
    void metricsWithoutTheHeapAreAFailedReading() {
        ForcedGc.Reading reading = ForcedGc.reading(3, 1, 1, "{\"gauges\":{}}");

        assertThat(reading.ok()).isFalse();
        assertThat(reading.failure()).contains("jvm.memory.heap.used");
    }
}
