package com.example.threading.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.RawHttpConnection;
import com.example.threading.testing.RawHttpConnection.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The fuzz suite: random and hostile input at every endpoint and parameter of the real service (see
 * {@link FuzzInputs}), over HTTP/1.1 as raw bytes, in concurrent batches. Every answer must keep {@link ReplyRules};
 * afterwards nothing may be parked, waiting or in flight and a normal request must be answered at once.
 *
 * <p>Tries per property: {@code jqwik.tries.default} in {@code src/test/resources/junit-platform.properties}, kept
 * small for CI; a longer run: {@code mvn -B -q test -Dtest='*FuzzProperties' -Djqwik.tries.default=1000}
 * (docs/errors.md, "Fuzz suite"). A failure names the request, the answer and jqwik's seed.
 */
class ServiceFuzzProperties {

    private static final FuzzedService SERVICE = new FuzzedService();
    private static final ExecutorService SENDERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "fuzz-sender");
        thread.setDaemon(true);
        return thread;
    });

    @BeforeContainer
    static void startService() throws Exception {
        SERVICE.start();
        if (Boolean.parseBoolean(System.getProperty("fuzz.longestWaits", "true"))) {
            probeLongestValidWaits();
        }
    }

    @AfterContainer
    static void serviceIsQuietAndResponsive() {
        try {
            // The longest valid waits probed at the start (60 s) must be over, like everything else.
            SERVICE.assertQuietAndResponsive(Duration.ofSeconds(75));
        } finally {
            SENDERS.shutdownNow();
            SERVICE.stop();
        }
    }

    @Property
    void everyAnswerIsAllowed(@ForAll("batches") List<FuzzRequest> batch) {
        List<CompletableFuture<Reply>> replies = new ArrayList<>();
        for (FuzzRequest request : batch) {
            replies.add(CompletableFuture.supplyAsync(() -> SERVICE.send(request), SENDERS));
        }
        List<String> broken = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            FuzzRequest request = batch.get(i);
            Reply reply = replies.get(i).join();
            Statistics.label("status").collect(reply.status());
            Statistics.label("endpoint").collect(request.endpoint().replaceAll(" (GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH|TRACE|FOO|get|M-SEARCH|PROPFIND)$", ""));
            for (String violation : ReplyRules.violations(request.endpoint(), request.head(), reply)) {
                broken.add(violation + "\n  request: " + request + "\n  answer: " + reply);
            }
        }
        assertThat(broken).isEmpty();
    }

    @Provide
    Arbitrary<List<FuzzRequest>> batches() {
        return FuzzInputs.requests().list().ofMinSize(1).ofMaxSize(8);
    }

    /**
     * The longest waits the service accepts ({@code ms=60000} on every /work pattern and on /fanout), sent once and
     * abandoned (the connection is reset): the service must accept them (no 4xx within 300 ms) and, by the end, have
     * answered them, which the quiet check after the run waits for.
     */
    private static void probeLongestValidWaits() throws InterruptedException {
        List<String> targets = new ArrayList<>();
        List.of("blocking", "thread-per-request", "cached", "bounded", "virtual")
                .forEach(pattern -> targets.add("/work/" + pattern + "?ms=60000"));
        targets.add("/fanout?n=1&ms=60000");
        for (String target : targets) {
            try (RawHttpConnection connection = RawHttpConnection.open(SERVICE.port())) {
                connection.send(RawHttpConnection.requestHead("GET", target));
                connection.socket().setSoTimeout(300);
                String early = "";
                try {
                    byte[] bytes = new byte[64];
                    int read = connection.socket().getInputStream().read(bytes);
                    early = read > 0 ? new String(bytes, 0, read, java.nio.charset.StandardCharsets.ISO_8859_1) : "";
                } catch (java.net.SocketTimeoutException stillWaiting) {
                    // accepted: the service is waiting
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                boolean virtualUnavailable = target.contains("virtual") && Runtime.version().feature() < 21;
                assertThat(early).as(target + " accepted").satisfiesAnyOf(
                        text -> assertThat(text).isEmpty(),
                        text -> assertThat(virtualUnavailable && text.startsWith("HTTP/1.1 501")).isTrue());
                connection.reset();
            } catch (java.net.SocketException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
