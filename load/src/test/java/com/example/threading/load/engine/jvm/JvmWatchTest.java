package com.example.threading.load.engine.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JvmWatchTest {

    private static final String METRICS = """
            {"version":"4.0.0",
             "gauges":{"jvm.memory.heap.used":{"value":104857600},"jvm.threads.count":{"value":42},
                       "events.parked":{"value":7}},
             "counters":{"events.waiting":{"count":3}}}
            """;

    @Test
    void readsHeapThreadsAndTheChosenGaugesFromAdminMetrics() {
        JvmSample sample = JvmWatch.fromMetrics(2.5, METRICS, 17, List.of("events.parked", "events.waiting", "absent"));

        assertThat(sample.atSeconds()).isEqualTo(2.5);
        assertThat(sample.heapUsedMb()).isEqualTo(100.0);
        assertThat(sample.threads()).isEqualTo(42.0);
        assertThat(sample.openFiles()).isEqualTo(17.0);
        assertThat(sample.gauges()).containsEntry("events.parked", 7.0).containsEntry("events.waiting", 3.0);
        assertThat(sample.gauges().get("absent")).isNaN();
    }

    @Test
    void refusesWhatIsNotJson() {
        assertThatThrownBy(() -> JvmWatch.fromMetrics(0, "<html>", 0, List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theToolWatchSamplesItsOwnJvmOnceASecond() throws Exception {
        JvmWatch tool = JvmWatch.tool(Optional.empty(), System.nanoTime());
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (tool.samples().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        tool.close();
        JvmSample first = tool.samples().get(0);
        assertThat(first.heapUsedMb()).isPositive();
        assertThat(first.threads()).isGreaterThanOrEqualTo(1);
        assertThat(first.openFiles()).isPositive();
        assertThat(tool.pauses()).isEqualTo(new GcPauses(0, 0, 0));
    }
}
