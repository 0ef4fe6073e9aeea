package com.example.threading.load.scenario.cost;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.http.H2load;
import com.example.threading.load.engine.http.H2loadStretch;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import com.example.threading.load.service.CpuClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cost table from made-up measurements: ratios to /ping, and no figure for a run with non-2xx answers or none at all. */
class CostViewTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aRunWithNon2xxAnswersIsReportedAsSuchAndNeverCountedAsWork(@TempDir Path folder) {
        Report report = new Report("cost", folder, "cost");
        Measurement ping = measured(endpoint("ping"), new H2load.Summary(10_000, 0, 0, 0, 10_000, 0, 0, 0), SECOND / 2);
        Measurement bounded = measured(endpoint("work-bounded"), new H2load.Summary(5_000, 40, 0, 0, 4_960, 0, 0, 40), SECOND);
        Measurement cached = measured(endpoint("work-cached"), new H2load.Summary(4_000, 0, 0, 0, 4_000, 0, 0, 0), SECOND);
        Measurement virtual = Measurement.notLoaded(endpoint("work-virtual"), "not available on JDK 17 (needs 21+)");

        CostView.present(report, "test", List.of(ping, bounded, cached, virtual), 60, List.of(), CostView.DATA);

        Table table = report.tables().get(0);
        assertThat(table.title()).startsWith(CostView.TITLE);
        // /ping: 0.5 s of CPU for 10,000 answers in 2 s = 50 µs each; /work/cached: 1 s for 4,000 = 250 µs, 5 times /ping's.
        assertThat(table.rows().get(0)).containsExactly("GET ping", "5000", "50.0", "1.00", percentOfAllCores(0.5), "10000");
        assertThat(table.rows().get(2)).containsExactly("GET work-cached", "2000", "250.0", "5.00", percentOfAllCores(1), "4000");
        assertThat(table.rows().get(1).get(2)).startsWith("not counted: 40 non-2xx (3xx 0, 4xx 0, 5xx 40), 40 failed");
        assertThat(table.rows().get(1).get(1)).isEqualTo("–");
        assertThat(table.rows().get(1).get(3)).isEqualTo("–");
        assertThat(table.rows().get(3)).containsExactly("GET work-virtual", "–", "not available on JDK 17 (needs 21+)", "–", "–", "–");
        assertThat(report.notes()).anyMatch(note -> note.startsWith("GET work-bounded: not counted"));
    }

    @Test
    void withoutAPingBaselineThereAreNoRatios(@TempDir Path folder) {
        Report report = new Report("cost", folder, "cost");
        Measurement ping = measured(endpoint("ping"), new H2load.Summary(10, 10, 0, 0, 0, 0, 10, 0), SECOND);
        Measurement cached = measured(endpoint("work-cached"), new H2load.Summary(4_000, 0, 0, 0, 4_000, 0, 0, 0), SECOND);

        CostView.present(report, "test", List.of(ping, cached), 60, List.of(), CostView.DATA);

        assertThat(report.tables().get(0).rows().get(1).get(3)).isEqualTo("–");
        assertThat(report.notes()).contains("/ping, the baseline, was not measured in this run: there are no ratios.");
    }

    @Test
    void theRequestLogsCostStandsBesideEachEndpointsRatiosWithAndWithoutIt(@TempDir Path folder) {
        Report report = new Report("cost", folder, "cost");
        H2load.Summary all2xx = new H2load.Summary(10_000, 0, 0, 0, 10_000, 0, 0, 0);
        // With the log: /ping 60 µs, /work/blocking 120 µs (2.00); without: 50 µs and 90 µs (1.80).
        List<EndpointCost> withLog = CostView.present(report, "on", List.of(measured(endpoint("ping"), all2xx, 6 * SECOND / 10),
                measured(endpoint("work-blocking"), all2xx, 12 * SECOND / 10),
                measured(endpoint("work-bounded"), new H2load.Summary(5_000, 40, 0, 0, 4_960, 0, 0, 40), SECOND)), 60, List.of(), CostView.DATA);
        List<EndpointCost> withoutLog = CostView.present(report, "off", List.of(measured(endpoint("ping"), all2xx, SECOND / 2),
                measured(endpoint("work-blocking"), all2xx, 9 * SECOND / 10), measured(endpoint("work-bounded"), all2xx, SECOND)), 60, List.of(),
                CostView.DATA_WITHOUT_REQUEST_LOG);

        CostView.compareRequestLog(report, withLog, withoutLog);

        Table table = report.tables().get(2);
        assertThat(table.title()).startsWith(CostView.REQUEST_LOG_TITLE);
        assertThat(table.rows().get(0)).containsExactly("GET ping", "1.00", "1.00", "60.0", "50.0", "+10.0");
        assertThat(table.rows().get(1)).containsExactly("GET work-blocking", "2.00", "1.80", "120.0", "90.0", "+30.0");
        assertThat(table.rows().get(2).get(5)).startsWith("request log on: not counted: 40 non-2xx");
        assertThat(table.rows().get(2).subList(1, 5)).containsOnly("–");
        assertThat(report.tables().get(0).title()).isEqualTo(CostView.TITLE + " (on)");
        assertThat(report.tables().get(1).title()).isEqualTo(CostView.TITLE + " (off)");
    }

    /** The server's CPU in % of all cores for {@code cpuSeconds} over the 2 s stretch. */
    private static String percentOfAllCores(double cpuSeconds) {
        return Report.num(100 * cpuSeconds / (2.0 * CpuClock.cores()));
    }

    private static Endpoint endpoint(String name) {
        return new Endpoint(name, "GET " + name, Endpoint.Kind.GET, URI.create("http://127.0.0.1:1/" + name), 16, Optional.empty(), List.of());
    }

    /** A measured stretch of 2 s with {@code cpuNanos} of server CPU. */
    private static Measurement measured(Endpoint endpoint, H2load.Summary summary, long cpuNanos) {
        H2loadStretch.Spec spec = new H2loadStretch.Spec("h2load-" + endpoint.name(), endpoint.url(), 16, Duration.ZERO, Duration.ofSeconds(2),
                Optional.empty(), List.of());
        return Measurement.loaded(endpoint, new H2loadStretch.Result(spec, List.of("h2load"), Optional.of(summary), 10 * SECOND, 12 * SECOND,
                cpuNanos, 0));
    }
}
