package com.example.threading.load.scenario.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.jvm.ForcedGc;
import com.example.threading.load.engine.jvm.GcLog;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForcedGcsTest {

    private static final Instant AT = Instant.parse("2026-11-23T12:00:00Z");

    @Test
    void theNoteCountsTheForcedCollectionsAndTheirPausesFromTheGcLog() {
        ForcedGcs forced = new ForcedGcs(Duration.ofMinutes(1),
                List.of(new ForcedGc.Reading(55, 1, 90, 40, 38, Double.NaN, ""), new ForcedGc.Reading(115, 2, 70, 41, 39, Double.NaN, "")),
                List.of(new GcLog.Event(AT, 3.0, 80L << 20), new GcLog.Event(AT.plusSeconds(55), 85.0, 40L << 20, true),
                        new GcLog.Event(AT.plusSeconds(115), 65.0, 41L << 20, true)),
                true);

        assertThat(forced.succeeded()).isEqualTo(2);
        assertThat(forced.note()).contains("Forced full GCs: 2 asked for", "every 60s", "2 done (the service's full-collection count moved) and read", "1 needed more than one ask", "GC locker",
                "GC log shows 2 explicit (System.gc()) collection(s), pauses 150 ms in all, longest 85 ms", "stop-the-world pause",
                "GC pause table", "--full-gc-every 0").doesNotContain("fewer than", "First failure");
    }

    @Test
    void theNoteSaysWhenTheServiceDidNotCollectAndWhatFailed() {
        ForcedGcs forced = new ForcedGcs(Duration.ofSeconds(30),
                List.of(new ForcedGc.Reading(25, 1, 2, 40, 38, Double.NaN, ""),
                        new ForcedGc.Reading(55, 1, 3, Double.NaN, Double.NaN, Double.NaN, "POST x: status 404")),
                List.of(), true);

        assertThat(forced.note()).contains("2 asked for", "1 done", "GC log shows 0 explicit", "DisableExplicitGC",
                "First failure: POST x: status 404").doesNotContain("more than one ask");
        assertThat(new ForcedGcs(Duration.ofSeconds(30), List.of(), List.of(), false).note()).doesNotContain("GC log shows");
    }

    @Test
    void theVerdictJudgesTheLiveHeapWithASmallSlackWhenFullGcsWereForced() {
        SoakView.Series live = SoakView.series(true).get(0);
        assertThat(live.name()).isEqualTo("live heap after full GC");
        assertThat(live.slack()).isEqualTo(SoakView.LIVE_HEAP_SLACK_MB);
        assertThat(SoakView.series(false).get(0).slack()).isEqualTo(SoakView.LOWEST_HEAP_SLACK_MB);

        // A live heap of ~50 MB gaining 1 MB a minute over 10 minutes (8 MB projected from minute 2 on) is growing...
        List<Double> leaking = List.of(30.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0);
        assertThat(Growth.of(leaking, live.slack()).verdict()).isEqualTo("growing");
        // ...while ±1.5 MB of requests in flight at the moment of the read is flat.
        List<Double> steady = List.of(30.0, 50.0, 51.5, 49.0, 50.5, 48.5, 51.0, 49.5, 50.0, 51.0);
        assertThat(Growth.of(steady, live.slack()).verdict()).isEqualTo("flat");
        // The old lowest-heap series' slack would have missed that leak.
        assertThat(Growth.of(leaking, SoakView.LOWEST_HEAP_SLACK_MB).verdict()).isEqualTo("flat");
    }
}
