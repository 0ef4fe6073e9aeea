package com.example.threading.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The name table on names this service registers, and the fallback on names it has no rule for. */
class NameMappingTest {

    @Test
    void aPatternsTimerIsOneFamilyWithThePatternAsALabel() {
        MappedName cached = NameMapping.map("work.cached.response-time");

        assertThat(cached.family()).isEqualTo("work_request_duration_seconds");
        assertThat(cached.labelNames()).containsExactly("pattern");
        assertThat(cached.labelValues()).containsExactly("cached");
        assertThat(NameMapping.map("work.thread-per-request.response-time").labelValues()).containsExactly("thread-per-request");
    }

    @Test
    void poolsAreLabelsNamedAsTheirThreads() {
        assertThat(NameMapping.map("work-cached.running")).extracting(MappedName::family, MappedName::kind, MappedName::labelValues)
                .containsExactly("executor_threads", ExportKind.GAUGE, List.of("work-cached"));
        assertThat(NameMapping.map("work.cached.executor.tasks.queued")).extracting(MappedName::family, MappedName::labelValues)
                .containsExactly("executor_tasks_queued", List.of("work-cached"));
        assertThat(NameMapping.map("events.dispatcher.duration")).extracting(MappedName::family, MappedName::labelValues)
                .containsExactly("executor_task_duration_seconds", List.of("events-dispatcher"));
        assertThat(NameMapping.map("org.eclipse.jetty.util.thread.QueuedThreadPool.dw.size").labelValues()).containsExactly("dw");
    }

    @Test
    void countersLoseTheirTotalSuffixInTheFamilyAndGaugesInMillisecondsBecomeSeconds() {
        assertThat(NameMapping.map("work.bounded.rejected").family()).isEqualTo("work_rejected");
        MappedName gcTime = NameMapping.map("jvm.gc.G1-Young-Generation.time");
        assertThat(gcTime.family()).isEqualTo("jvm_gc_collection_seconds");
        assertThat(gcTime.kind()).isEqualTo(ExportKind.COUNTER);
        assertThat(gcTime.scale()).isEqualTo(0.001);
    }

    @Test
    void aNameWithoutRuleIsSnakeCaseAndNeverEndsInAReservedWord() {
        assertThat(NameMapping.map("work.thread-per-request.live-threads").family()).isEqualTo("work_thread_per_request_live_threads");
        assertThat(NameMapping.map("some.ClassName.fooBar").family()).isEqualTo("some_class_name_foo_bar");
        assertThat(NameMapping.map("x.y.created").family()).isEqualTo("x_y_creations");
        assertThat(NameMapping.map("x.y.count").family()).isEqualTo("x_y_number");
        assertThat(NameMapping.map("1xx").family()).isEqualTo("_1xx");
    }

    @Test
    void theDeadlockTextIsSkippedWithAReason() {
        MappedName deadlocks = NameMapping.map("jvm.threads.deadlocks");

        assertThat(deadlocks.kind()).isEqualTo(ExportKind.SKIP);
        assertThat(deadlocks.skipReason()).contains("jvm_threads_deadlocked");
    }
}
