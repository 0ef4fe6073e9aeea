package com.example.threading.load.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.load.engine.Phases;
import com.example.threading.load.engine.recording.Outcome;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    @TempDir
    Path dir;

    @Test
    void aTableRendersAsMarkdownWithOneLinePerRow() {
        Table table = new Table("t", List.of("a", "b"), List.of(List.of("1", "2"), List.of("3", "")));
        assertThat(table.markdown()).isEqualTo("| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |  |\n");
        assertThat(new Table("empty", List.of("only"), List.of()).markdown()).isEqualTo("| only |\n|---|\n");
    }

    @Test
    void aTableKeepsItsCellsWhateverHappensToTheListsItWasMadeOf() {
        List<String> row = new java.util.ArrayList<>(List.of("1"));
        List<List<String>> rows = new java.util.ArrayList<>(List.of(row));
        Table table = new Table("t", List.of("a"), rows);
        row.set(0, "changed");
        rows.add(List.of("2"));
        assertThat(table.rows()).containsExactly(List.of("1"));
    }

    @Test
    void numbersShowAtMostOneDecimalAndADashWhenUnmeasured() {
        assertThat(Report.num(2.0)).isEqualTo("2");
        assertThat(Report.num(-0.0)).isEqualTo("0");
        assertThat(Report.num(1234567)).isEqualTo("1234567");
        assertThat(Report.num(2.25)).isEqualTo("2.3");
        assertThat(Report.num(0.04)).isEqualTo("0.0");
        assertThat(Report.num(Double.NaN)).isEqualTo("–");
        assertThat(Report.num(1e16 + 0.5)).as("too large for a long: formatted").isEqualTo("10000000000000000.0");
    }

    @Test
    void latenciesKeepTwoDecimalsBelowTenMilliseconds() {
        assertThat(Report.ms(0.123)).isEqualTo("0.12");
        assertThat(Report.ms(9.5)).isEqualTo("9.50");
        assertThat(Report.ms(10)).isEqualTo("10");
        assertThat(Report.ms(1234.6)).isEqualTo("1235");
        assertThat(Report.ms(Double.NaN)).isEqualTo("–");
    }

    @Test
    void writesReportMdAndResultsJsonWithTheSameNumbers() throws Exception {
        Report report = new Report("demo", dir, "java -jar load/target/threading-load.jar demo --x 1");
        report.configure("pause", Duration.ofMillis(500)).configure("rates", List.of(1, 2)).configure("pipe", "a|b");
        report.environment("service", "x.jar");
        report.summary("What it did.");
        report.note("first note").note("second note");
        report.table(new Table("Numbers", List.of("k", "v"), List.of(List.of("a", "1"))));
        report.plot("p.png", "A plot.");
        report.phase(Phases.phase("phase-1", 10, 2.0, Map.of(Outcome.OK, 4L, Outcome.RESET, 1L), Phases.latency(4, 1, 2, 3, 4)));
        report.data("extra", Map.of("answer", 42));
        Path file = report.write();

        String md = Files.readString(file);
        assertThat(file).isEqualTo(dir.resolve("report.md"));
        assertThat(md).startsWith("# demo — ").contains("`java -jar load/target/threading-load.jar demo --x 1`\n\nWhat it did.\n\n");
        assertThat(md).contains("## Notes\n\n- first note\n- second note\n");
        assertThat(md).contains("## Numbers\n\n| k | v |\n|---|---|\n| a | 1 |\n");
        assertThat(md).contains("![A plot.](p.png)\n\n*A plot.*\n");
        assertThat(md).contains("## Raw data").contains("`phase-1.hlog`");
        assertThat(md).contains("| pause | 500ms |").contains("| rates | [1, 2] |").contains("| pipe | a\\|b |");
        assertThat(md).contains("## Machine and JDK").contains("| cores | " + Runtime.getRuntime().availableProcessors() + " |")
                .contains("| service | x.jar |");
        assertThat(md.indexOf("## Notes")).isLessThan(md.indexOf("## Numbers"));
        assertThat(md.indexOf("## Plots")).isLessThan(md.indexOf("## Raw data"));
        assertThat(md.indexOf("## Configuration")).isLessThan(md.indexOf("## Machine and JDK"));

        JsonNode json = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(json.fieldNames()).toIterable().containsExactly("scenario", "command", "startedAt", "finishedAt", "environment",
                "configuration", "notes", "tables", "phases", "data");
        assertThat(json.path("configuration").path("pause").asText()).isEqualTo("500ms");
        assertThat(json.path("notes")).hasSize(2);
        assertThat(json.path("tables").get(0).fieldNames()).toIterable().containsExactly("title", "header", "rows");
        assertThat(json.path("tables").get(0).path("rows").get(0).get(1).asText()).isEqualTo("1");
        JsonNode phase = json.path("phases").get(0);
        assertThat(phase.path("sent").asLong()).isEqualTo(5);
        assertThat(phase.path("outcomes").path("RESET").asLong()).isEqualTo(1);
        assertThat(phase.path("latencyMs").path("p99").asDouble()).isEqualTo(3);
        assertThat(phase.path("serverCpuPercent").asDouble()).isEqualTo(12.5);
        assertThat(json.path("data").path("extra").path("answer").asInt()).isEqualTo(42);
    }

    @Test
    void aReportWithoutNotesPlotsOrPhasesLeavesTheirSectionsOut() throws Exception {
        Report report = new Report("bare", dir, "cmd");
        String md = Files.readString(report.write());
        assertThat(md).doesNotContain("## Notes").doesNotContain("## Plots").doesNotContain("## Raw data")
                .contains("## Configuration").contains("## Machine and JDK");
    }

    @Test
    void aReportRefusesToBeFilledFromAnotherThread() {
        Report report = new Report("confined", dir, "cmd");
        CompletableFuture<Void> elsewhere = CompletableFuture.runAsync(() -> report.note("from a client callback"));
        assertThatThrownBy(elsewhere::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("confined");
        assertThat(report.notes()).isEmpty();
    }
}
