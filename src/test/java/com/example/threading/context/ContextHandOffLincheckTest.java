package com.example.threading.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The request context's hand-off to a pool over every interleaving Lincheck's model checker explores (up to its
 * bound of {@value #INVOCATIONS} interleavings): two requests, each on a thread of its own with its context current,
 * hand a task to one reused pool thread through {@code Context.taskWrapping}, and a third thread hands it a task of
 * no request, unwrapped. Whatever the order the pool thread runs them in, each request's task sees its own request
 * id, in the {@code Context} and in the MDC ({@link MdcContextStorage}), the task of no request sees none, and the
 * pool thread is back to no context and an empty MDC at the end. The scenario fails on a seeded bug: a wrapper
 * that makes the context current and never closes its scope ({@link #leakyWrapping}), so the next task on that
 * thread runs in the last request's context.
 */
class ContextHandOffLincheckTest {

    private static final int INVOCATIONS = 500;
    private static final int TASKS = 3;

    @Test
    void eachTaskSeesItsOwnRequestAndThePoolThreadNoneAfter() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(pool -> Context.taskWrapping(pool)));
    }

    @Test
    void aWrapperThatNeverClosesItsScopeIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(pool -> leakyWrapping(pool))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("saw request"));
    }

    /** The seeded bug: the submitter's context made current around the task, its scope never closed. */
    private static Executor leakyWrapping(Executor pool) {
        return task -> {
            Context submitter = Context.current();
            pool.execute(() -> {
                submitter.makeCurrent(); // never closed
                task.run();
            });
        };
    }

    /** One interleaving: the three hand-offs to one reused pool thread; then what each task saw. */
    private static void scenario(UnaryOperator<Executor> wrapping) {
        LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
        Executor reused = queue::add;
        Executor wrapped = wrapping.apply(reused);
        AtomicReference<String> broken = new AtomicReference<>();
        Thread poolThread = new Thread(() -> {
            for (int t = 0; t < TASKS; t++) {
                take(queue).run();
            }
            String left = RequestContext.requestId(Context.current());
            if (left != null || MDC.get(RequestContext.MDC_REQUEST_ID) != null) {
                broken.compareAndSet(null, "the pool thread kept request " + left + " (MDC: "
                        + MDC.get(RequestContext.MDC_REQUEST_ID) + ") after its tasks");
            }
        });
        poolThread.start();
        Interleavings.onThreads(List.of(
                () -> handOff(wrapped, "r-1", broken),
                () -> handOff(wrapped, "r-2", broken),
                () -> reused.execute(() -> expect(null, broken))));
        Interleavings.join(poolThread);
        if (broken.get() != null) {
            throw new AssertionError(broken.get());
        }
    }

    /** A request's thread, its context current, hands the pool a task that checks it sees this request. */
    private static void handOff(Executor wrapped, String requestId, AtomicReference<String> broken) {
        Context request = Context.root().with(Baggage.builder().put(RequestContext.REQUEST_ID, requestId).build());
        try (Scope current = request.makeCurrent()) {
            wrapped.execute(() -> expect(requestId, broken));
        }
    }

    /** Records a mismatch if the running task's context or MDC is not {@code requestId}'s (null: none). */
    private static void expect(String requestId, AtomicReference<String> broken) {
        String seen = RequestContext.requestId(Context.current());
        String logged = MDC.get(RequestContext.MDC_REQUEST_ID);
        if (!Objects.equals(seen, requestId) || !Objects.equals(logged, requestId)) {
            broken.compareAndSet(null, "a task of request " + requestId + " saw request " + seen + " (MDC: " + logged + ")");
        }
    }

    private static Runnable take(LinkedBlockingQueue<Runnable> queue) {
        try {
            return queue.take();
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
    }
}
