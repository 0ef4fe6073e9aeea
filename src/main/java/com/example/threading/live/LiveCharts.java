package com.example.threading.live;

import static com.example.threading.live.LiveSeries.perSecond;
import static com.example.threading.live.LiveSeries.value;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the live page draws: this service's charts, each line read from the metric registry by the name its pattern's
 * page documents. The names are written out here, not imported: this package is infrastructure and depends on no
 * pattern. A line whose metric is not registered (the virtual-thread pool before JDK 21, admission when it is off) is
 * drawn empty and says so; {@code LiveChartsTest} checks that every other name exists on a running service.
 */
public final class LiveCharts {

    private static final String JETTY_POOL = "org.eclipse.jetty.util.thread.QueuedThreadPool.dw";
    private static final String REQUESTS = "io.dropwizard.jetty.MutableServletContextHandler";
    private static final String STRATEGY = "jetty.connector.application.strategy.";
    /** How Dropwizard's {@code GarbageCollectorMetricSet} turns a collector's name into a metric name. */
    private static final Pattern WHITESPACE = Pattern.compile("[\\s]+");

    private LiveCharts() {
    }

    /** The charts of this service, GC lines for the collectors of the running JVM. */
    public static List<LiveChart> standard() {
        return List.of(
                new LiveChart("Live threads per pool", "threads",
                        "Threads alive in each pool now: the cached pool grows with a wave and its threads stay a minute; "
                                + "thread-per-request starts and ends one thread per request; virtual threads are counted "
                                + "while their task runs.",
                        List.of(value("Jetty application pool", JETTY_POOL + ".size", "operations.md"),
                                value("work-cached pool", "work.cached.executor.pool.size", "work.md"),
                                value("work-bounded pool", "work.bounded.executor.pool.size", "work.md"),
                                value("thread-per-request", "work.thread-per-request.live-threads", "work.md"),
                                value("client fan-out pool", "client.fanout.executor.pool.size", "client.md"),
                                value("virtual threads in flight (/work/virtual, JDK 21+)", "work.virtual.executor.running", "work.md"),
                                value("requests on virtual threads (serverVirtualThreads)", "server.virtual-threads.running",
                                        "virtual-threads.md"),
                                value("all JVM threads", "jvm.threads.count", "operations.md"))),
                new LiveChart("Requests in flight", "requests",
                        "Requests being answered now, on the whole application port and per pattern; the second line "
                                + "counts those holding a Jetty thread: an async request (AsyncResponse, a parked poll) holds "
                                + "none while it waits.",
                        List.of(value("application port, all", REQUESTS + ".active-requests", "operations.md"),
                                value("holding a Jetty thread", REQUESTS + ".active-dispatches", "operations.md"),
                                value("/work/cached tasks running", "work.cached.executor.running", "work.md"),
                                value("/work/bounded places taken", "work.bounded.places-taken", "work.md"),
                                value("/fanout calls (managed pool)", "client.fanout.in-flight", "client.md"),
                                value("/fanout?via=common calls", "client.fanout.common.in-flight", "client.md"))),
                new LiveChart("Queued, waiting their turn", "tasks",
                        "Work accepted but not started: jobs in Jetty's queue (unbounded), tasks in the bounded pool's "
                                + "queue and the client pool's queue, requests waiting for a virtual-thread place.",
                        List.of(value("Jetty application pool jobs", JETTY_POOL + ".jobs", "operations.md"),
                                value("/work/bounded queue", "work.bounded.executor.tasks.queued", "work.md"),
                                value("client fan-out pool queue", "client.fanout.executor.tasks.queued", "client.md"),
                                value("waiting for a virtual-thread place", "server.virtual-threads.waiting", "virtual-threads.md"))),
                new LiveChart("Refusals (503) per second", "per second",
                        "Requests refused with 503 and Retry-After each second, by who refused them; the first line is "
                                + "every 5xx answer of the application's servlet context (lines with equal values overlap).",
                        List.of(perSecond("all 5xx answers", REQUESTS + ".5xx-responses", "errors.md"),
                                perSecond("admission control", "admission.rejected", "admission.md"),
                                perSecond("/work/bounded full", "work.bounded.rejected", "work.md"),
                                perSecond("/work/thread-per-request cap", "work.thread-per-request.rejected", "work.md"),
                                perSecond("/work/cached cap", "work.cached.rejected", "work.md"),
                                perSecond("/events parked limit", "events.rejected", "longpoll.md"),
                                perSecond("/events/stream streams limit", "events.sse.refused", "sse.md"),
                                perSecond("/fanout managed pool full", "client.fanout.managed.rejected", "client.md"),
                                perSecond("/fanout?via=common cap", "client.fanout.common.rejected", "client.md"))),
                new LiveChart("Long-polls waiting for an event", "requests",
                        "Polls parked without a thread (GET /events, answered in one batch per event) against polls each "
                                + "blocking a Jetty worker (GET /events/blocking), and Server-Sent Events streams open "
                                + "(GET /events/stream; each waits as a parked poll, counted in the first line too).",
                        List.of(value("parked (no thread)", "events.parked", "longpoll.md"),
                                value("blocked (one Jetty thread each)", "events.blocking.waiting", "longpoll.md"),
                                value("event streams open", "events.sse.open", "sse.md"))),
                new LiveChart("Event streams: writes and slow readers", "per second",
                        "What the Server-Sent Events streams (GET /events/stream) write each second: events (one per "
                                + "event per stream) and heartbeats; and the slow readers shed each second.",
                        List.of(perSecond("events written", "events.sse.events-written", "sse.md"),
                                perSecond("heartbeats", "events.sse.heartbeats", "sse.md"),
                                perSecond("slow readers shed", "events.sse.shed", "sse.md"))),
                new LiveChart("Event streams: bytes not yet taken by their sockets", "bytes",
                        "Bytes the open event streams hold queued or in Jetty's buffers that their sockets have not taken; "
                                + "a stream above sse.maxUnsentBytes at its next event is shed.",
                        List.of(value("unsent, all streams", "events.sse.unsent-bytes", "sse.md"))),
                new LiveChart("Jetty execution strategy: tasks per second by mode", "tasks per second",
                        "How the application connector's selectors ran the tasks they produced (EatWhatYouKill): PC and "
                                + "EPC run a task on the thread that read it (hot cache), PEC hands it to the pool, PIC runs it "
                                + "on the selector thread because it does not block.",
                        List.of(perSecond("PC: produce-consume", STRATEGY + "pc", "jetty.md"),
                                perSecond("PIC: produce-invoke-consume", STRATEGY + "pic", "jetty.md"),
                                perSecond("PEC: produce-execute-consume", STRATEGY + "pec", "jetty.md"),
                                perSecond("EPC: execute-produce-consume", STRATEGY + "epc", "jetty.md"))),
                new LiveChart("Admission control", "requests (rejected: per second)",
                        "Requests holding one of the server's places, waiting for one, and refused with 503 each second "
                                + "(empty when admission control is off).",
                        List.of(value("active (holding a place)", "admission.active", "admission.md"),
                                value("queued (waiting for a place)", "admission.queued", "admission.md"),
                                perSecond("rejected per second", "admission.rejected", "admission.md"))),
                new LiveChart("Virtual threads: pinned parks and failed submits per second (JDK 21+)", "per second",
                        "Parks that kept their carrier thread (a native frame or a class initializer on the stack; on "
                                + "JDK 21 also a monitor) for at least threads.pinnedThreshold, and virtual threads the "
                                + "scheduler could not start, each second, from the JVM's own JFR events.",
                        List.of(perSecond("pinned parks", "threads.virtual.pinned", "newer-jdks.md"),
                                perSecond("failed submits", "threads.virtual.submit-failed", "newer-jdks.md"))),
                new LiveChart("GC: time in collections", "ms per second",
                        "Milliseconds each second that each garbage collector spent collecting (its stop-the-world "
                                + "pauses, and for a concurrent collector its concurrent work too).",
                        garbageCollectors()));
    }

    /** One line per collector of this JVM, read from Dropwizard's {@code jvm.gc.<collector>.time} (milliseconds). */
    private static List<LiveSeries> garbageCollectors() {
        List<LiveSeries> lines = new ArrayList<>();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = WHITESPACE.matcher(collector.getName()).replaceAll("-");
            lines.add(perSecond(collector.getName(), "jvm.gc." + name + ".time", "prometheus.md"));
        }
        return lines;
    }
}
