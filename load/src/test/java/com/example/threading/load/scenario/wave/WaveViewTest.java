package com.example.threading.load.scenario.wave;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.Phases;
import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wave views from made-up records: no service, no load. */
class WaveViewTest {

    @TempDir
    Path dir;

    private static PatternWaves pattern(String name, PhaseResult... waves) {
        Histogram latencies = new Histogram(3);
        latencies.recordValue(1_000_000);
        return new PatternWaves(name, List.of(waves), latencies);
    }

    @Test
    void aWaveTimeIsItsSlowestAnswerAndAWaveWithAFailureHasNone() throws Exception {
        PatternWaves bounded = pattern("bounded",
                Phases.allOk("bounded-wave-1", 60, Phases.latency(60, 1000, 1500, 2003.6, 2004.4)),
                Phases.phase("bounded-wave-2", 0, 2.0, Map.of(Outcome.OK, 59L, Outcome.RESET, 1L), Phases.latency(59, 1000, 1500, 2000, 2100)));
        assertThat(bounded.waveTimesMs()).containsExactly(2004.4, Double.NaN);
        assertThat(bounded.sent()).isEqualTo(120);
        assertThat(bounded.outcomes()).containsEntry("OK", 119L).containsEntry("RESET", 1L);

        Report report = new Report("wave", dir, "cmd");
        WaveView.add(report, bounded);
        WaveView.present(report, List.of(bounded), 60, 3, 1000);

        assertThat(report.notes()).containsExactly("bounded: not all 2xx: {OK=119, RESET=1}");
        Table table = report.tables().get(0);
        assertThat(table.header()).containsExactly("pattern", "wave 1 ms", "wave 2 ms", "wave 3 ms", "best − 1000 ms", "p50 ms", "max ms",
                "2xx / sent", "note");
        assertThat(table.rows().get(0)).containsExactly("bounded", "2004", "–", "–", "1004", "1000", "1000", "119 / 120",
                "not all 2xx: {OK=119, RESET=1}");
        assertThat(dir.resolve("waves.png")).isNotEmptyFile();
        assertThat(dir.resolve("percentiles.png")).isNotEmptyFile();
    }

    @Test
    void aPatternAnswering501EverywhereIsUnavailableNotFailedAndLeftOutOfTheBars() throws Exception {
        PatternWaves virtual = pattern("virtual", Phases.phase("virtual-wave-1", 0, 1.0, Map.of(Outcome.UNAVAILABLE_501, 10L),
                Phases.latency(0, 0, 0, 0, 0)));
        PatternWaves blocking = pattern("blocking", Phases.allOk("blocking-wave-1", 10, Phases.latency(10, 100, 101, 102, 103)));
        assertThat(virtual.unavailable()).isTrue();
        assertThat(blocking.unavailable()).isFalse();
        assertThat(pattern("none").unavailable()).as("nothing sent is not unavailable").isFalse();

        Report report = new Report("wave", dir, "cmd");
        WaveView.add(report, virtual);
        WaveView.add(report, blocking);
        assertThat(report.notes()).singleElement().asString().startsWith("virtual: 501: pattern unavailable");
        WaveView.present(report, List.of(virtual, blocking), 10, 1, 100);
        assertThat(report.tables().get(0).rows()).extracting(row -> row.get(0)).containsExactly("virtual", "blocking");
        assertThat(report.tables().get(0).rows().get(1).get(2)).as("best − ms").isEqualTo("3");
    }

    @Test
    void fanoutRowsShowTheServicesAnswerOrWhyThereWasNone() throws Exception {
        Map<String, List<FanoutCalls.Call>> byVia = new LinkedHashMap<>();
        byVia.put("managed", List.of(new FanoutCalls.Call(1, new SimpleHttp.Answer(200,
                "{\"elapsedMs\":1012,\"distinctThreads\":100,\"errors\":[]}", Outcome.OK, ""), 1020.4)));
        byVia.put("common", List.of(new FanoutCalls.Call(1, new SimpleHttp.Answer(503, "busy", Outcome.REJECTED_503, ""), 3.2),
                new FanoutCalls.Call(2, new SimpleHttp.Answer(0, "", Outcome.TIMEOUT, "timeout"), 150_000)));
        byVia.put("callback", List.of());
        Report report = new Report("wave", dir, "cmd");
        FanoutView.present(report, new FanoutCalls(100, 1000, byVia));

        Table table = report.tables().get(0);
        assertThat(table.title()).isEqualTo("/fanout (n=100, ms=1000)");
        assertThat(table.rows()).containsExactly(
                List.of("managed", "1", "1020", "1012", "100", "0"),
                List.of("common", "1", "3", "–", "–", "HTTP 503"),
                List.of("common", "2", "150000", "–", "–", "timeout"));
    }
}
