package com.example.threading.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * What a hand-off does to a request's context, on real threads: a bare hand-off loses it (an unwrapped pool, {@code
 * supplyAsync} on the common pool, a virtual thread started bare), a wrapped one carries it, and a reused pool thread
 * shows nothing of the request it ran before, its own values coming back after each task (restored, not cleared).
 * The MDC is read on the other thread as a log line would see it.
 */
class HandOffPitfallsTest {

    private final ExecutorService pool = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "pitfall-pool"));

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void theMdcFollowsTheCurrentContextAndComesBackAfter() {
        assertThat(RequestContextBundle.mdcFollowsContext()).as("the storage provider is the one in use").isTrue();
        try (Scope request = request("outer").makeCurrent()) {
            assertThat(MDC.get(RequestContext.MDC_REQUEST_ID)).isEqualTo("outer");
            try (Scope inner = request("inner").makeCurrent()) {
                assertThat(MDC.get(RequestContext.MDC_REQUEST_ID)).isEqualTo("inner");
            }
            assertThat(MDC.get(RequestContext.MDC_REQUEST_ID)).isEqualTo("outer");
        }
        assertThat(MDC.get(RequestContext.MDC_REQUEST_ID)).isNull();
    }

    @Test
    void aWrappedPoolCarriesTheContextAndGivesTheThreadItsOwnBack() throws Exception {
        ExecutorService carrying = Context.taskWrapping(pool);
        pool.submit(() -> MDC.put(RequestContext.MDC_REQUEST_ID, "the thread's own")).get();

        String seen;
        try (Scope request = request("r-1").makeCurrent()) {
            seen = carrying.submit(HandOffPitfallsTest::seenOnThisThread).get(10, TimeUnit.SECONDS);
        }
        String afterwards = pool.submit(HandOffPitfallsTest::seenOnThisThread).get(10, TimeUnit.SECONDS);
        String outsideAnyRequest = carrying.submit(HandOffPitfallsTest::seenOnThisThread).get(10, TimeUnit.SECONDS);
        String afterThat = pool.submit(HandOffPitfallsTest::seenOnThisThread).get(10, TimeUnit.SECONDS);

        assertThat(seen).isEqualTo("r-1 r-1");
        assertThat(afterwards).as("the thread's own MDC value is back, not cleared").isEqualTo("the thread's own null");
        assertThat(outsideAnyRequest).as("a task handed over outside any request: no request, none of r-1").isEqualTo("null null");
        assertThat(afterThat).isEqualTo("the thread's own null");
    }

    @Test
    void anUnwrappedPoolLosesIt() throws Exception {
        String seen;
        try (Scope request = request("r-2").makeCurrent()) {
            seen = pool.submit(HandOffPitfallsTest::seenOnThisThread).get(10, TimeUnit.SECONDS);
        }
        assertThat(seen).isEqualTo("null null");
    }

    @Test
    void supplyAsyncOnTheCommonPoolLosesItUnlessItsTaskIsWrapped() throws Exception {
        String bare;
        String wrapped;
        try (Scope request = request("r-3").makeCurrent()) {
            bare = CompletableFuture.supplyAsync(HandOffPitfallsTest::seenOnThisThread).get(10, TimeUnit.SECONDS);
            wrapped = CompletableFuture.supplyAsync(Context.current().wrapSupplier(HandOffPitfallsTest::seenOnThisThread))
                    .get(10, TimeUnit.SECONDS);
        }
        assertThat(bare).isEqualTo("null null");
        assertThat(wrapped).isEqualTo("r-3 r-3");
    }

    @Test
    void aVirtualThreadStartedBareLosesItAndAWrappedTaskKeepsIt() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+; this JDK is " + Runtime.version());
        AtomicReference<String> bare = new AtomicReference<>();
        AtomicReference<String> wrapped = new AtomicReference<>();
        try (Scope request = request("r-4").makeCurrent()) {
            join(startVirtualThread(() -> bare.set(seenOnThisThread())));
            join(startVirtualThread(Context.current().wrap(() -> wrapped.set(seenOnThisThread()))));
        }
        assertThat(bare.get()).isEqualTo("null null");
        assertThat(wrapped.get()).isEqualTo("r-4 r-4");
    }

    /** A request's context holding {@code id}, as the request-context handler makes it. */
    private static Context request(String id) {
        return Context.root().with(Baggage.builder().put(RequestContext.REQUEST_ID, id).build());
    }

    /** The request id in this thread's MDC and in its current context. */
    private static String seenOnThisThread() {
        return MDC.get(RequestContext.MDC_REQUEST_ID) + " " + RequestContext.requestId(Context.current());
    }

    /** {@code Thread.ofVirtual().start(task)}, called reflectively so that this compiles for Java 17. */
    private static Thread startVirtualThread(Runnable task) throws Exception {
        Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
        return (Thread) start.invoke(null, task);
    }

    private static void join(Thread thread) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thread.isAlive()).isFalse();
    }
}
