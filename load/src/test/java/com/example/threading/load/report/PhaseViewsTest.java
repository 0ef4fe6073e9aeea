package com.example.threading.load.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.Phases;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhaseViewsTest {

    @TempDir
    Path dir;

    @Test
    void aRowShowsHowEveryRequestEndedAndOtherGathersTheRareKinds() {
        PhaseResult phase = Phases.phase("step-5", 5, 2.0, Map.of(Outcome.OK, 8L, Outcome.REJECTED_503, 3L, Outcome.UNAVAILABLE_501, 1L,
                Outcome.RESET, 2L, Outcome.TIMEOUT, 4L, Outcome.UNANSWERED, 5L, Outcome.OTHER_STATUS, 1L, Outcome.OTHER_FAILURE, 2L,
                Outcome.CLIENT_REJECTED, 3L), Phases.latency(8, 1, 2.5, 9.99, 123.4));
        Table table = PhaseViews.table("Phases", List.of(phase));

        assertThat(table.header()).hasSize(21);
        List<String> row = table.rows().get(0);
        assertThat(row).hasSize(table.header().size());
        assertThat(cell(table, row, "phase")).isEqualTo("step-5");
        assertThat(cell(table, row, "path")).isEqualTo("`/work/x`");
        assertThat(cell(table, row, "rate/s")).isEqualTo("5");
        assertThat(cell(table, row, "sent")).isEqualTo("29");
        assertThat(cell(table, row, "2xx")).isEqualTo("8");
        assertThat(cell(table, row, "503")).isEqualTo("3");
        assertThat(cell(table, row, "501")).isEqualTo("1");
        assertThat(cell(table, row, "unanswered")).isEqualTo("5");
        assertThat(cell(table, row, "other")).as("other status + other failure + client rejected").isEqualTo("6");
        assertThat(cell(table, row, "2xx/s")).isEqualTo("4");
        assertThat(cell(table, row, "p50 ms")).isEqualTo("2.50");
        assertThat(cell(table, row, "p99 ms")).isEqualTo("9.99");
        assertThat(cell(table, row, "max ms")).isEqualTo("123");
        assertThat(cell(table, row, "tool CPU %")).isEqualTo("–");
    }

    @Test
    void aPhaseWithout2xxShowsDashesNotZeroLatencyAndNoRateWhenNotPaced() {
        PhaseResult phase = Phases.phase("down", 0, 1.0, Map.of(Outcome.RESET, 7L), LatencySummary.of(new Histogram(3)));
        List<String> row = PhaseViews.table("t", List.of(phase)).rows().get(0);
        Table table = PhaseViews.table("t", List.of(phase));
        assertThat(cell(table, row, "rate/s")).isEqualTo("–");
        assertThat(cell(table, row, "p50 ms")).isEqualTo("–");
        assertThat(cell(table, row, "max ms")).isEqualTo("–");
    }

    @Test
    void aSenderThatFellBelowNinetyPercentOfItsScheduleIsNoted() {
        Report report = new Report("r", dir, "cmd");
        PhaseViews.noteShortfall(report, Phases.allOk("kept-up", 90, Phases.latency(90, 1, 1, 1, 1)), 100);
        assertThat(report.notes()).isEmpty();
        PhaseViews.noteShortfall(report, Phases.allOk("fell-behind", 89, Phases.latency(89, 1, 1, 1, 1)), 100);
        assertThat(report.notes()).singleElement().asString().startsWith("fell-behind: the sender fell behind").contains("89 of about 100");
    }

    @Test
    void theStandardPlotsAreWrittenAndListedEvenForPhasesWithoutData() throws Exception {
        Report report = new Report("r", dir, "cmd");
        Histogram histogram = new Histogram(3);
        histogram.recordValue(1_500);
        PhaseResult phase = Phases.allOk("p", 1, Phases.latency(1, 1.5, 1.5, 1.5, 1.5));
        PhaseResult empty = Phases.phase("e", 0, 1.0, Map.of(), LatencySummary.of(new Histogram(3)));
        PhaseViews.plots(report, "x-", List.of(phase, empty), Map.of("p", histogram, "e", new Histogram(3)), true);
        Path md = report.write();
        for (String png : List.of("x-percentiles.png", "x-throughput.png", "x-latency.png", "x-cpu.png")) {
            assertThat(dir.resolve(png)).isNotEmptyFile();
            assertThat(Files.readString(md)).contains("](" + png + ")");
        }
    }

    private static String cell(Table table, List<String> row, String column) {
        return row.get(table.header().indexOf(column));
    }
}
