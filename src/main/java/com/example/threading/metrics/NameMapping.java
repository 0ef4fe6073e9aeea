package com.example.threading.metrics;

import static com.example.threading.metrics.MetricRule.rule;
import static com.example.threading.metrics.MetricRule.skip;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The Prometheus name and labels of every Dropwizard metric of this service, from its name alone (no configuration):
 * the first matching {@link MetricRule} of {@link #RULES}, else the name in snake case. A pattern that registers
 * {@code work.<pattern>.response-time} is therefore exposed as {@code work_request_duration_seconds{pattern="..."}}
 * without importing anything from this package. docs/prometheus.md lists the mapping.
 */
final class NameMapping {

    /** Executor pools wrapped in Dropwizard's {@code InstrumentedExecutorService}: {@code <prefix>.submitted} etc. */
    private static final String EXECUTOR = "(?<pool>[a-z.-]+\\.executor|events\\.dispatcher)\\.";
    private static final UnaryOperator<String> POOL = name -> name.replaceFirst("\\.executor$", "").replace('.', '-');
    private static final String HANDLER = "io\\.dropwizard\\.jetty\\.MutableServletContextHandler\\.";
    private static final String QUEUED_THREAD_POOL = "org\\.eclipse\\.jetty\\.util\\.thread\\.QueuedThreadPool\\.(?<pool>[^.]+)\\.";
    private static final String CONNECTOR = "jetty\\.connector\\.(?<connector>[^.]+)\\.";
    private static final String CONNECTION_MANAGER = "org\\.apache\\.hc\\.client5\\.http\\.io\\.HttpClientConnectionManager\\.(?<client>[^.]+)\\.";
    /** Prometheus reserves these last words of a name; the fallback never ends a name with one. */
    private static final Map<String, String> RESERVED_LAST_WORDS = Map.of(
            "total", "all", "created", "creations", "info", "info_level", "bucket", "buckets",
            "count", "number", "sum", "summed");

    static final List<MetricRule> RULES = List.of(
            // Latencies and sizes: native Prometheus histograms, one family per measurement, the variant as a label.
            rule("work\\.(?<pattern>[^.]+)\\.response-time", "work_request_duration_seconds").labels("pattern"),
            rule("work\\.(?<pattern>[^.]+)\\.(?<what>rejected|timeouts)", "work_{what}_total").labels("pattern"),
            rule("work\\.thread-per-request\\.started-threads", "work_thread_per_request_started_threads_total", ExportKind.COUNTER),
            rule("client\\.fanout\\.(?<via>[^.]+)\\.response-time", "fanout_duration_seconds").labels("via"),
            rule("client\\.fanout\\.(?<via>managed|rxjava|callback|common|structured)\\.(?<what>errors|rejected)", "fanout_{what}_total").labels("via"),
            rule("client\\.fanout\\.in-flight", "fanout_calls_in_flight").labels("limit=managed"),
            rule("client\\.fanout\\.common\\.in-flight", "fanout_calls_in_flight").labels("limit=common"),
            rule("admission\\.queue-wait", "admission_queue_wait_seconds"),
            rule("admission\\.rejected\\.(?<reason>queue-full|queue-timeout)", "admission_rejected_by_reason_total").labels("reason"),
            rule("events\\.event-to-last-write", "events_event_to_last_write_seconds"),
            rule("events\\.event-to-queued", "events_event_to_queued_seconds"),
            rule("events\\.redis\\.publish\\.latency", "events_redis_publish_duration_seconds"),
            rule("events\\.topics\\.created", "events_topics_opened_total"),
            // Dropwizard's InstrumentedExecutorService: one family per measurement, the pool as a label.
            rule(EXECUTOR + "submitted", "executor_tasks_submitted_total").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "completed", "executor_tasks_completed_total").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "running", "executor_tasks_running", ExportKind.GAUGE).labels("pool").labelValues(POOL),
            rule(EXECUTOR + "rejected", "executor_tasks_rejected_total", ExportKind.COUNTER).labels("pool").labelValues(POOL),
            rule(EXECUTOR + "duration", "executor_task_duration_seconds").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "idle", "executor_task_queue_wait_seconds").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "pool\\.size", "executor_pool_threads").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "pool\\.core", "executor_pool_core_threads").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "pool\\.max", "executor_pool_max_threads").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "tasks\\.active", "executor_tasks_active").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "tasks\\.queued", "executor_tasks_queued").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "tasks\\.capacity", "executor_queue_remaining_capacity").labels("pool").labelValues(POOL),
            rule(EXECUTOR + "tasks\\.completed", "executor_pool_completed_tasks_total", ExportKind.COUNTER).labels("pool").labelValues(POOL),
            // Dropwizard's InstrumentedThreadFactory, named after the thread-name format (no dots): threads per pool.
            rule("(?<pool>[^.]+)\\.created", "executor_threads_started_total").labels("pool"),
            rule("(?<pool>[^.]+)\\.running", "executor_threads", ExportKind.GAUGE).labels("pool"),
            rule("(?<pool>[^.]+)\\.terminated", "executor_threads_terminated_total").labels("pool"),
            // Jetty's thread pools (application "dw", admin "dw-admin") and the jetty package's connector gauges.
            rule(QUEUED_THREAD_POOL + "size", "jetty_threads").labels("pool"),
            rule(QUEUED_THREAD_POOL + "jobs", "jetty_queued_jobs").labels("pool"),
            rule(QUEUED_THREAD_POOL + "utilization", "jetty_threads_busy_ratio").labels("pool"),
            rule(QUEUED_THREAD_POOL + "utilization-max", "jetty_threads_busy_of_max_ratio").labels("pool"),
            rule(QUEUED_THREAD_POOL + "jobs-queue-utilization", "jetty_queued_jobs_ratio").labels("pool"),
            rule(CONNECTOR + "strategy\\.(?<mode>pc|pec|pic|epc)", "jetty_strategy_tasks_total", ExportKind.COUNTER).labels("connector", "mode"),
            rule(CONNECTOR + "strategy\\.epc-reproduced", "jetty_strategy_epc_reproduced_total", ExportKind.COUNTER).labels("connector"),
            rule(CONNECTOR + "strategy\\.(?<what>selectors|idle-selectors|virtual-thread-selectors)", "jetty_{what}").labels("connector"),
            rule(CONNECTOR + "reserved-threads\\.(?<what>available|capacity|configured)", "jetty_reserved_threads_{what}").labels("connector"),
            rule("org\\.eclipse\\.jetty\\.server\\.HttpConnectionFactory\\.(?<listener>.+)\\.connections", "jetty_connection_duration_seconds").labels("listener"),
            rule("server\\.virtual-threads\\.(?<what>started|waited|interrupted)", "server_virtual_threads_{what}_total", ExportKind.COUNTER),
            // The threads package: the JSON thread dump and virtual threads' JFR events (JDK 21+).
            rule("threads\\.json-dump", "threads_json_dump_duration_seconds"),
            rule("threads\\.json-dump\\.refused", "threads_json_dumps_refused_total"),
            rule("threads\\.virtual\\.pinned", "jvm_virtual_threads_pinned_seconds"),
            rule("threads\\.virtual\\.submit-failed", "jvm_virtual_threads_submit_failed_total"),
            // Dropwizard's request metrics of the application handler.
            rule(HANDLER + "(?<status>[1-5]xx)-responses", "http_server_responses_total").labels("status"),
            rule(HANDLER + "(?<method>get|post|put|delete|head|options|trace|connect|move|other)-requests", "http_server_request_duration_seconds").labels("method"),
            rule(HANDLER + "requests", "http_server_any_request_duration_seconds"),
            rule(HANDLER + "dispatches", "http_server_dispatch_duration_seconds"),
            rule(HANDLER + "active-requests", "http_server_active_requests", ExportKind.GAUGE),
            rule(HANDLER + "active-dispatches", "http_server_active_dispatches", ExportKind.GAUGE),
            rule(HANDLER + "active-suspended", "http_server_suspended_requests", ExportKind.GAUGE),
            rule(HANDLER + "async-dispatches", "http_server_async_dispatches_total"),
            rule(HANDLER + "async-timeouts", "http_server_async_timeouts_total"),
            rule(HANDLER + "percent-(?<status>[45]xx)-(?<window>1m|5m|15m)", "http_server_responses_of_all_ratio").labels("status", "window"),
            // Dropwizard's HTTP client (the fan-out's).
            rule("org\\.apache\\.hc\\.client5\\.http\\.classic\\.HttpClient\\.(?<client>[^.]+)\\.(?<method>[a-z]+)-requests",
                    "http_client_request_duration_seconds").labels("client", "method"),
            rule(CONNECTION_MANAGER + "(?<state>available|leased|pending)-connections", "http_client_pool_connections").labels("client", "state"),
            rule(CONNECTION_MANAGER + "max-connections", "http_client_pool_max_connections").labels("client"),
            // Logging and Jersey.
            rule("ch\\.qos\\.logback\\.core\\.Appender\\.all", "logback_appender_all_events_total"),
            rule("ch\\.qos\\.logback\\.core\\.Appender\\.(?<level>[a-z]+)", "logback_appender_events_total").labels("level"),
            rule("io\\.dropwizard\\.jersey\\.errors\\.EofExceptionWriterInterceptor\\.eof-exceptions", "jersey_eof_exceptions_total", ExportKind.COUNTER),
            // The JVM (registered by Dropwizard at start-up), in base units.
            rule("jvm\\.attribute\\.uptime", "jvm_uptime_seconds").scale(0.001),
            rule("jvm\\.attribute\\.(?<attribute>name|vendor)", "jvm_attribute", ExportKind.INFO).labels("attribute"),
            rule("jvm\\.buffers\\.(?<pool>[^.]+)\\.capacity", "jvm_buffer_pool_capacity_bytes").labels("pool"),
            rule("jvm\\.buffers\\.(?<pool>[^.]+)\\.count", "jvm_buffer_pool_buffers").labels("pool"),
            rule("jvm\\.buffers\\.(?<pool>[^.]+)\\.used", "jvm_buffer_pool_used_bytes").labels("pool"),
            rule("jvm\\.classloader\\.(?<what>loaded|unloaded)", "jvm_classes_{what}_total", ExportKind.COUNTER),
            rule("jvm\\.filedescriptor", "jvm_open_file_descriptors_ratio"),
            rule("jvm\\.gc\\.(?<gc>[^.]+)\\.count", "jvm_gc_collections_total", ExportKind.COUNTER).labels("gc"),
            rule("jvm\\.gc\\.(?<gc>[^.]+)\\.time", "jvm_gc_collection_seconds_total", ExportKind.COUNTER).labels("gc").scale(0.001),
            rule("jvm\\.memory\\.(?<area>heap|non-heap)\\.usage", "jvm_memory_used_ratio").labels("area"),
            rule("jvm\\.memory\\.(?<area>heap|non-heap)\\.(?<what>committed|init|max|used)", "jvm_memory_{what}_bytes").labels("area"),
            rule("jvm\\.memory\\.total\\.(?<what>committed|init|max|used)", "jvm_memory_total_{what}_bytes"),
            rule("jvm\\.memory\\.pools\\.(?<pool>.+)\\.usage", "jvm_memory_pool_used_ratio").labels("pool"),
            rule("jvm\\.memory\\.pools\\.(?<pool>.+)\\.(?<what>committed|init|max|used|used-after-gc)", "jvm_memory_pool_{what}_bytes").labels("pool"),
            rule("jvm\\.threads\\.(?<state>new|runnable|blocked|waiting|timed_waiting|terminated)\\.count", "jvm_threads_state").labels("state"),
            rule("jvm\\.threads\\.count", "jvm_threads_current"),
            rule("jvm\\.threads\\.daemon\\.count", "jvm_threads_daemon"),
            rule("jvm\\.threads\\.peak\\.count", "jvm_threads_peak"),
            rule("jvm\\.threads\\.total_started\\.count", "jvm_threads_started_total", ExportKind.COUNTER),
            rule("jvm\\.threads\\.deadlock\\.count", "jvm_threads_deadlocked"),
            skip("jvm\\.threads\\.deadlocks", "the deadlocked threads' stack traces (text); their number is jvm_threads_deadlocked"));

    private NameMapping() {
    }

    /** The Prometheus family, type and labels of the Dropwizard metric {@code name}. */
    static MappedName map(String name) {
        for (MetricRule rule : RULES) {
            Optional<MappedName> mapped = rule.apply(name);
            if (mapped.isPresent()) {
                MappedName found = mapped.get();
                return new MappedName(withoutTotal(found.family()), found.kind(), found.labelNames(), found.labelValues(),
                        found.scale(), found.skipReason());
            }
        }
        return new MappedName(fallback(name), ExportKind.BY_TYPE, List.of(), List.of(), 1, "");
    }

    /** {@code work.thread-per-request.live-threads} → {@code work_thread_per_request_live_threads}; camelCase split. */
    static String snakeCase(String name) {
        String snake = name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return snake.isEmpty() || Character.isDigit(snake.charAt(0)) ? "_" + snake : snake;
    }

    private static String fallback(String name) {
        String snake = snakeCase(name);
        int last = snake.lastIndexOf('_');
        String lastWord = snake.substring(last + 1);
        return RESERVED_LAST_WORDS.containsKey(lastWord) ? snake.substring(0, last + 1) + RESERVED_LAST_WORDS.get(lastWord) : snake;
    }

    private static String withoutTotal(String family) {
        return family.endsWith("_total") ? family.substring(0, family.length() - "_total".length()) : family;
    }
}
