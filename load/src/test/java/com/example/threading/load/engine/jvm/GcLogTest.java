package com.example.threading.load.engine.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcLogTest {

    private static final String G1 = """
            [2026-11-23T12:13:01.205+0000][0.509s][info][gc,start] GC(1) Pause Young (Normal) (G1 Evacuation Pause)
            [2026-11-23T12:13:01.209+0000][0.513s][info][gc,phases] GC(1)   Evacuate Collection Set: 4.1ms
            [2026-11-23T12:13:01.209+0000][0.513s][info][gc,heap  ] GC(1) Eden regions: 3->0(3)
            [2026-11-23T12:13:01.209+0000][0.513s][info][gc,metaspace] GC(1) Metaspace: 11382K(11584K)->11382K(11584K)
            [2026-11-23T12:13:01.209+0000][0.513s][info][gc          ] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 18M->7M(388M) 4.664ms
            [2026-11-23T12:13:01.209+0000][0.513s][info][gc,cpu      ] GC(1) User=0.01s Sys=0.00s Real=0.00s
            [2026-11-23T12:13:02.000+0000][1.300s][info][gc          ] GC(2) Concurrent Mark Cycle
            [2026-11-23T12:13:02.100+0000][1.400s][info][gc          ] GC(2) Pause Remark 20M->20M(256M) 12.5ms
            [2026-11-23T12:13:02.300+0000][1.600s][info][gc          ] GC(2) Concurrent Mark Cycle 374.934ms
            [2026-11-23T12:13:03.000+0000][2.300s][info][gc          ] GC(3) Pause Full (System.gc()) 1G->512K(1G) 250.000ms
            """;

    private static final String ZGC = """
            [2026-11-23T12:13:02.163+0000][0.814s][info][gc,phases] GC(0) Y: Pause Mark Start 0.019ms
            [2026-11-23T12:13:02.175+0000][0.826s][info][gc,phases] GC(0) Y: Pause Mark End 0.016ms
            [2026-11-23T12:13:02.201+0000][0.852s][info][gc,phases   ] GC(0) O: Old Generation 6M(0%)->6M(0%) 0.011s
            [2026-11-23T12:13:02.201+0000][0.852s][info][gc          ] GC(0) Major Collection (System.gc()) 272M(5%)->6M(0%) 0.038s
            """;

    @Test
    void readsG1PausesAndTheHeapAfterEachCollection(@TempDir Path folder) throws Exception {
        Path log = Files.writeString(folder.resolve("gc.log"), G1 + "[2026-11-23T12:13:04.0");
        List<GcLog.Event> events = GcLog.read(log);

        assertThat(events).extracting(GcLog.Event::pauseMs).containsExactly(4.664, 12.5, 250.0);
        assertThat(events).extracting(GcLog.Event::heapAfterBytes).containsExactly(7L << 20, 20L << 20, 512L << 10);
        assertThat(events.get(0).at()).isEqualTo(Instant.parse("2026-11-23T12:13:01.209Z"));
        // Only the full collection was asked for (System.gc(), as the admin task /tasks/gc does).
        assertThat(events).extracting(GcLog.Event::explicit).containsExactly(false, false, true);
        assertThat(GcLog.pauses(events, Instant.EPOCH, Instant.parse("2100-01-01T00:00:00Z")))
                .isEqualTo(new GcPauses(3, 267.164, 250.0));
        // Only the pauses that began in the window: the remark at 12:13:02.100.
        assertThat(GcLog.pauses(events, Instant.parse("2026-11-23T12:13:02Z"), Instant.parse("2026-11-23T12:13:03Z")))
                .isEqualTo(new GcPauses(1, 12.5, 12.5));
    }

    @Test
    void readsZgcPausesFromItsPhasesAndTheHeapAfterFromItsSummary() {
        List<GcLog.Event> events = ZGC.lines().map(GcLog::parse).flatMap(java.util.Optional::stream).toList();

        assertThat(events).filteredOn(GcLog.Event::isPause).extracting(GcLog.Event::pauseMs).containsExactly(0.019, 0.016);
        assertThat(events).filteredOn(event -> event.heapAfterBytes() >= 0).extracting(GcLog.Event::heapAfterBytes)
                .containsExactly(6L << 20);
        assertThat(events).filteredOn(GcLog.Event::explicit).hasSize(1);
    }

    @Test
    void anAbsentLogHasNoEvents(@TempDir Path folder) throws Exception {
        assertThat(GcLog.read(folder.resolve("missing.log"))).isEmpty();
        assertThat(GcLog.pauses(List.of(), Instant.EPOCH, Instant.now())).isEqualTo(new GcPauses(0, 0, 0));
    }

    @Test
    void theToolsOwnGcLogRecordsAPause(@TempDir Path folder) throws Exception {
        Path file = folder.resolve("tool-gc.log");
        try (ToolGcLog log = ToolGcLog.start(file).orElseThrow()) {
            System.gc();
            assertThat(log.file()).isEqualTo(file);
        }
        List<GcLog.Event> events = GcLog.read(file);
        assertThat(events).as(Files.readString(file)).anyMatch(GcLog.Event::isPause);
    }
}
