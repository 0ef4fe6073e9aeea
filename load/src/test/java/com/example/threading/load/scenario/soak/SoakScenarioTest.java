package com.example.threading.load.scenario.soak;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.jvm.ForcedGc;
import com.example.threading.load.engine.jvm.GcLog;
import com.example.threading.load.engine.jvm.JvmSample;
import com.example.threading.load.engine.recording.IntervalSample;
import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakScenarioTest {

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void aShortSoakMixesEveryPatternFanoutAndLongPollsAndSumsUpItsMinute(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "soak", "--duration", "5s", "--rate", "60", "--pollers", "5", "--blocking-pollers", "2",
                "--poll-timeout", "2", "--full-gc-every", "2s", "--max-duration", "90s");
        JsonNode results = assertReportFiles(folder);

        assertThat(folder.resolve("soak-heap.png")).isNotEmptyFile();
        assertThat(folder.resolve("soak-resources.png")).isNotEmptyFile();
        JsonNode minutes = results.path("data").path("soakMinutes");
        assertThat(minutes).as("one (partial) minute").hasSize(1);
        assertThat(minutes.get(0).path("threadsMax").asDouble()).isPositive();
        assertThat(minutes.get(0).path("openFilesMax").asDouble()).isPositive();
        // The 5 long-pollers park on /events between ticks.
        assertThat(minutes.get(0).path("gaugesMax").path("events.parked").asDouble()).isBetween(1.0, 5.0);
        String phases = results.path("phases").findValues("path").toString();
        assertThat(phases).contains("/work/blocking?ms=5", "/work/bounded?ms=5", "/work/virtual?ms=5", "/fanout?n=4", "/events", "/events/blocking");
        for (JsonNode phase : results.path("phases")) {
            ReportAssertions.assertConsistent(phase);
        }
        assertThat(results.path("notes").toString()).contains("too short to judge");

        // Full GCs forced every 2 s through the admin task: the minute's live heap is read right after one, is
        // positive and below the minute's peak (the peak includes the garbage the forced collection removed).
        JsonNode forced = results.path("data").path("soakForcedGcs");
        assertThat(forced.size()).as("forced GCs in 5 s, every 2 s from 1 s on: %s", forced).isGreaterThanOrEqualTo(2);
        double fullCollections = 0;
        for (JsonNode reading : forced) {
            assertThat(reading.path("failure").asText()).as("%s", reading).isEmpty();
            // Each one confirmed by the service's own count of full collections (G1 Old Generation), which moved.
            assertThat(reading.path("fullCollections").asDouble()).as("%s", reading).isGreaterThan(fullCollections);
            fullCollections = reading.path("fullCollections").asDouble();
            assertThat(reading.path("oldGenMb").asDouble()).as("%s", reading).isPositive()
                    .isLessThanOrEqualTo(reading.path("heapUsedMb").asDouble());
        }
        double live = minutes.get(0).path("liveHeapAfterFullGcMb").asDouble();
        assertThat(live).isPositive().isLessThan(minutes.get(0).path("heapUsedMaxMb").asDouble());
        String notes = results.path("notes").toString();
        assertThat(notes).contains("Forced full GCs: " + forced.size() + " asked for").contains("stop-the-world pause");
        // Every forced GC is in the service's GC log (one more if the soak ended while a last one was under way).
        Matcher logged = Pattern.compile("GC log shows (\\d+) explicit").matcher(notes);
        assertThat(logged.find()).as(notes).isTrue();
        assertThat(Integer.parseInt(logged.group(1))).isGreaterThanOrEqualTo(forced.size());
    }

    @Test
    void minutesTakeTheLastForcedLiveHeapTheLowestHeapAfterOtherCollectionsAndThePeaksOfEachMinute() {
        Instant start = Instant.parse("2026-11-23T12:00:00Z");
        List<JvmSample> samples = List.of(
                new JvmSample(10, 100, 40, 30, Map.of("events.parked", 3.0)),
                new JvmSample(50, 150, 45, 35, Map.of("events.parked", 9.0)),
                new JvmSample(75, 120, 41, 31, Map.of("events.parked", 2.0)));
        List<GcLog.Event> gc = List.of(
                new GcLog.Event(start.plusSeconds(20), 3.0, 60L << 20),
                new GcLog.Event(start.plusSeconds(40), 2.0, 55L << 20),
                new GcLog.Event(start.plusSeconds(80), Double.NaN, 70L << 20),
                // The forced full GCs: left out of the lowest heap after GC, which stays what the collector left on its own.
                new GcLog.Event(start.plusSeconds(30), 90.0, 20L << 20, true),
                new GcLog.Event(start.plusSeconds(100), 80.0, 25L << 20, true));
        List<ForcedGc.Reading> forced = List.of(
                new ForcedGc.Reading(30, 1, 95, 21, 19, Double.NaN, ""),
                new ForcedGc.Reading(60, 1, 95, 22, 20, Double.NaN, ""),
                new ForcedGc.Reading(62, 1, 10, Double.NaN, Double.NaN, Double.NaN, "POST: status 404"),
                new ForcedGc.Reading(100, 1, 85, 26, 24, Double.NaN, ""));
        List<IntervalSample> cpu = List.of(new IntervalSample(1, 1, 10, 0, 0, 1, 2, 3, 40, 5), new IntervalSample(2, 1, 10, 0, 0, 1, 2, 3, 60, 5));

        List<MinuteSample> minutes = SoakScenario.minutes(samples, forced, gc, start, cpu, 5, Duration.ofSeconds(120));

        assertThat(minutes).hasSize(2);
        // Minute 1 is [5 s, 65 s): its last good reading is the one at 60 s; the failed one at 62 s does not count.
        assertThat(minutes.get(0).liveHeapAfterFullGcMb()).isEqualTo(22.0);
        assertThat(minutes.get(0).oldGenAfterFullGcMb()).isEqualTo(20.0);
        assertThat(minutes.get(0).lowestHeapAfterGcMb()).isEqualTo(55.0);
        assertThat(minutes.get(0).heapUsedMaxMb()).isEqualTo(150.0);
        assertThat(minutes.get(0).threadsMax()).isEqualTo(45.0);
        assertThat(minutes.get(0).gaugesMax()).containsEntry("events.parked", 9.0);
        assertThat(minutes.get(0).serverCpuPercent()).isEqualTo(50.0);
        assertThat(minutes.get(1).liveHeapAfterFullGcMb()).isEqualTo(26.0);
        assertThat(minutes.get(1).lowestHeapAfterGcMb()).isEqualTo(70.0);
        assertThat(minutes.get(1).threadsMax()).isEqualTo(41.0);
        assertThat(minutes.get(1).serverCpuPercent()).isNaN();
    }
}
