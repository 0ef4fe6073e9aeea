package com.example.threading.load.scenario.soak;

import com.example.threading.load.engine.jvm.ForcedGc;
import com.example.threading.load.engine.jvm.GcLog;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import java.time.Duration;
import java.util.List;

/**
 * The full collections a soak forced (every {@code period}): the tool's readings and, from the service's GC log
 * (when the tool started the service and so has one), the explicit collections the service logged and their
 * pauses; {@link #note()} says what they cost, so the latency tables are read with them in mind.
 */
record ForcedGcs(Duration period, List<ForcedGc.Reading> readings, List<GcLog.Event> gcEvents, boolean gcLogKnown) {

    ForcedGcs {
        readings = List.copyOf(readings);
        gcEvents = List.copyOf(gcEvents);
    }

    /** Forced collections whose task answered 200 and whose heap was read after it. */
    long succeeded() {
        return readings.stream().filter(ForcedGc.Reading::ok).count();
    }

    /** The report's note: how many were forced, what the service logged, their pauses, and the first failure if any. */
    String note() {
        List<GcLog.Event> explicitPauses = gcEvents.stream().filter(event -> event.explicit() && event.isPause()).toList();
        long explicitCollections = gcEvents.stream().filter(event -> event.explicit() && event.heapAfterBytes() >= 0).count();
        double total = explicitPauses.stream().mapToDouble(GcLog.Event::pauseMs).sum();
        double longest = explicitPauses.stream().mapToDouble(GcLog.Event::pauseMs).max().orElse(Double.NaN);
        long repeated = readings.stream().filter(reading -> reading.asks() > 1).count();
        StringBuilder note = new StringBuilder("Forced full GCs: " + readings.size() + " asked for (admin `POST /tasks/gc` every "
                + Durations.format(period) + "), " + succeeded() + " done (the service's full-collection count moved) and read; the "
                + "live-heap series is the heap used right after each. ");
        if (repeated > 0) {
            note.append(repeated).append(" needed more than one ask: the service's System.gc() returned without collecting (under G1 "
                    + "on JDK 17 it is skipped while a JNI critical region holds the GC locker). ");
        }
        if (gcLogKnown) {
            note.append("The service's GC log shows ").append(explicitCollections).append(" explicit (System.gc()) collection(s)");
            if (!explicitPauses.isEmpty()) {
                note.append(", pauses ").append(Report.num(total)).append(" ms in all, longest ").append(Report.num(longest)).append(" ms");
            }
            note.append(explicitCollections < succeeded() ? " — fewer than were asked for: does the service run with -XX:+DisableExplicitGC "
                    + "or -XX:+ExplicitGCInvokesConcurrent? Then the live heap is not the live heap. " : ". ");
        }
        note.append("Each is a stop-the-world pause the service paid: it is counted in the GC pause table and delays the requests in "
                + "flight at that moment, so read the latency tables' tails with that in mind (`--full-gc-every 0` turns it off).");
        readings.stream().filter(reading -> !reading.ok()).findFirst()
                .ifPresent(failed -> note.append(" First failure: ").append(failed.failure()).append('.'));
        return note.toString();
    }
}
