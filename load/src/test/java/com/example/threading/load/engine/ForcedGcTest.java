package com.example.threading.load.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ForcedGcTest {

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
