package com.example.threading.load.scenario.limit;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.Phases;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limit views from made-up steps: no service, no load. */
class LimitViewTest {

    @TempDir
    Path dir;

    private static Histogram micros(long... values) {
        Histogram histogram = new Histogram(3);
        for (long value : values) {
            histogram.recordValue(value);
        }
        return histogram;
    }

    @Test
    void eachStepSaysWhatBecameOfItsRequestsInPercentThatAddUpToAHundredWithTheModesOfOneRateSideBySide() throws Exception {
        LimitStep off = new LimitStep(AdmissionMode.OFF, 200, Phases.phase("admission-off-200", 200, 2.0, Map.of(Outcome.OK, 50L,
                Outcome.REJECTED_503, 300L, Outcome.RESET, 20L, Outcome.TIMEOUT, 10L, Outcome.UNANSWERED, 10L,
                Outcome.OTHER_STATUS, 7L, Outcome.CLIENT_REJECTED, 3L), Phases.latency(50, 100, 200, 900, 950)),
                new Histogram(3), micros(1_000, 2_000, 4_000));
        LimitStep on = new LimitStep(AdmissionMode.ON, 200, Phases.phase("admission-on-200", 200, 2.0, Map.of(Outcome.OK, 100L,
                Outcome.REJECTED_503, 300L), Phases.latency(100, 100, 150, 300, 310)), new Histogram(3), new Histogram(3));
        LimitStep onBelow = new LimitStep(AdmissionMode.ON, 100, Phases.allOk("admission-on-100", 200, Phases.latency(200, 1, 1, 1, 1)),
                new Histogram(3), new Histogram(3));
        assertThat(off.failed()).isEqualTo(40);
        assertThat(off.other()).isEqualTo(10);

        Report report = new Report("limit", dir, "cmd");
        for (LimitStep step : List.of(onBelow, on, off)) {
            LimitView.add(report, step, Duration.ofSeconds(2));
        }
        // Measured mode by mode (on: 100, 200; then off: 200), shown rate by rate.
        LimitView.present(report, "/work/blocking?ms=100", Protocol.HTTP1, List.of(onBelow, on, off));

        Table table = report.tables().get(0);
        assertThat(table.title()).isEqualTo("Admission control on and off at the same offered rates (HTTP/1.1, `/work/blocking?ms=100`)");
        assertThat(table.rows()).extracting(row -> row.get(0) + " " + row.get(1)).containsExactly("100 on", "200 on", "200 off");
        List<String> row = table.rows().get(2);
        assertThat(row.subList(0, 10)).containsExactly("200", "off", "400", "25", "12.5", "75", "5", "2.5", "2.5", "2.5");
        double percentSum = row.subList(4, 10).stream().mapToDouble(Double::parseDouble).sum();
        assertThat(percentSum).isEqualTo(100.0);
        assertThat(row.get(table.header().indexOf("2xx p99 ms"))).isEqualTo("900");
        assertThat(row.get(table.header().indexOf("503 p50 ms"))).isEqualTo("2.00");
        assertThat(row.get(table.header().indexOf("503 p99 ms"))).isEqualTo("4.00");
        assertThat(table.rows().get(1).get(table.header().indexOf("503 p99 ms"))).as("no 503 latency recorded").isEqualTo("–");
        assertThat(report.tables().get(1).title()).isEqualTo("All steps in detail");
        assertThat(report.notes()).as("400 sent of 400 scheduled: no shortfall").isEmpty();
        for (String file : List.of("limit-throughput.png", "limit-latency.png", "admission-on-throughput.png", "admission-off-percentiles.png")) {
            assertThat(dir.resolve(file)).isNotEmptyFile();
        }
    }

    @Test
    void aStepThatSentFarFewerThanScheduledIsNoted() {
        LimitStep starved = new LimitStep(AdmissionMode.ON, 1000, Phases.allOk("admission-on-1000", 500, Phases.latency(500, 1, 1, 1, 1)),
                new Histogram(3), new Histogram(3));
        Report report = new Report("limit", dir, "cmd");
        LimitView.add(report, starved, Duration.ofSeconds(1));
        assertThat(report.notes()).singleElement().asString().contains("500 of about 1000");
    }

    @Test
    void aPercentageOfNothingIsADash() {
        assertThat(LimitView.pct(0, 0)).isEqualTo("–");
        assertThat(LimitView.pct(1, 3)).isEqualTo("33.3");
        assertThat(LimitView.pct(2, 3)).isEqualTo("66.7");
    }

    @Test
    void eachModeSetsTheServicesAdmissionSwitchAndNamesItsPhases() {
        assertThat(AdmissionMode.ON.environment()).containsOnly(Map.entry("ADMISSION_ENABLED", "true"), Map.entry("ADMISSION_LIMIT", "fixed"));
        assertThat(AdmissionMode.OFF.environment()).containsOnly(Map.entry("ADMISSION_ENABLED", "false"));
        assertThat(AdmissionMode.ADAPTIVE.environment()).containsOnly(Map.entry("ADMISSION_ENABLED", "true"),
                Map.entry("ADMISSION_LIMIT", "gradient2"));
        assertThat(AdmissionMode.OFF.phaseName(4000)).isEqualTo("admission-off-4000");
    }
}
