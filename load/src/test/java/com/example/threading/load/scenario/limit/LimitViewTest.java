package com.example.threading.load.scenario.limit;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.Phases;
import com.example.threading.load.engine.Protocol;
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

    @Test
    void eachStepSaysWhatBecameOfItsRequestsInPercentThatAddUpToAHundred() throws Exception {
        LimitStep step = new LimitStep(200, Phases.phase("step-200", 200, 2.0, Map.of(Outcome.OK, 50L, Outcome.REJECTED_503, 300L,
                Outcome.RESET, 20L, Outcome.TIMEOUT, 10L, Outcome.UNANSWERED, 10L, Outcome.OTHER_STATUS, 7L, Outcome.CLIENT_REJECTED, 3L),
                Phases.latency(50, 100, 200, 900, 950)), new Histogram(3));
        assertThat(step.timedOut()).isEqualTo(20);
        assertThat(step.other()).isEqualTo(10);

        Report report = new Report("limit", dir, "cmd");
        LimitView.add(report, step, Duration.ofSeconds(2));
        LimitView.present(report, "/work/bounded?ms=100", Protocol.HTTP1, Duration.ofSeconds(2), List.of(step));

        Table table = report.tables().get(0);
        assertThat(table.title()).isEqualTo("Steps past capacity (HTTP/1.1, `/work/bounded?ms=100`)");
        List<String> row = table.rows().get(0);
        assertThat(row.subList(0, 8)).containsExactly("200", "400", "25", "12.5", "75", "5", "5", "2.5");
        double percentSum = row.subList(3, 8).stream().mapToDouble(Double::parseDouble).sum();
        assertThat(percentSum).isEqualTo(100.0);
        assertThat(report.tables().get(1).title()).isEqualTo("All steps in detail");
        assertThat(report.notes()).as("400 sent of 400 scheduled: no shortfall").isEmpty();
        assertThat(dir.resolve("limit-throughput.png")).isNotEmptyFile();
        assertThat(dir.resolve("limit-latency.png")).isNotEmptyFile();
    }

    @Test
    void aStepThatSentFarFewerThanScheduledIsNoted() {
        LimitStep starved = new LimitStep(1000, Phases.allOk("step-1000", 500, Phases.latency(500, 1, 1, 1, 1)), new Histogram(3));
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
}
