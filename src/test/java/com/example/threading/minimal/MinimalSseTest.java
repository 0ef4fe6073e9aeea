package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalSse} (at most 2 streams, 8 frames unsent each) in a bare Dropwizard application, a fresh one per test:
 * an event reaches every stream with its id, a third stream is refused with 503, a reader that never reads is shed
 * (its place is free again) while the other stream receives every event, and the stop ends every stream.
 */
class MinimalSseTest {

    /** A copier's application: the listing's two lines; the test publishes through {@link #streams}. */
    public static final class App extends Application<Configuration> {
        private volatile MinimalSse streams;

        @Override
        public void run(Configuration configuration, Environment environment) {
            streams = new MinimalSse(2, 8);
            streams.register(environment, "/minimal/stream");
        }
    }

    private static final Duration BOUND = Duration.ofSeconds(20);
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private DropwizardTestSupport<Configuration> app;

    @AfterEach
    void stop() {
        app.after();
    }

    @Test
    void anEventReachesEveryStreamAndAThirdIsRefused() throws Exception {
        start();
        HttpResponse<Stream<String>> first = open();
        HttpResponse<Stream<String>> second = open();
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/event-stream"));
        HttpResponse<Stream<String>> third = open();
        assertThat(third.statusCode()).isEqualTo(503);
        third.body().close();

        BlockingQueue<String> firstLines = lines(first);
        BlockingQueue<String> secondLines = lines(second);
        app.<App>getApplication().streams.publish("{\"price\":101.5}");
        for (BlockingQueue<String> lines : java.util.List.of(firstLines, secondLines)) {
            assertThat(next(lines, "id: ")).isEqualTo("id: 1");
            assertThat(next(lines, "data: ")).isEqualTo("data: {\"price\":101.5}");
        }
        first.body().close();
        second.body().close();
    }

    @Test
    void aReaderThatNeverReadsIsShedWhileTheOtherStreamGetsEveryEvent() throws Exception {
        start();
        try (Socket stalled = new Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", app.getLocalPort()));
            OutputStream request = stalled.getOutputStream();
            request.write("GET /minimal/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            request.flush();
            HttpResponse<Stream<String>> reader = open();
            BlockingQueue<String> lines = lines(reader);
            Await.until(() -> app.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 2,
                    BOUND, "two streams open");
            String pad = "x".repeat(60_000);
            int published = 0;
            boolean shed = false;
            while (!shed) {
                assertThat(published).as("shed within 500 events of 60 KB").isLessThan(500);
                app.<App>getApplication().streams.publish("{\"pad\":\"" + pad + "\"}");
                published++;
                assertThat(next(lines, "id: ")).isEqualTo("id: " + published);
                HttpResponse<Stream<String>> another = open(); // a free place means the stalled stream was shed
                shed = another.statusCode() == 200;
                another.body().close();
            }
            reader.body().close();
        }
    }

    @Test
    void theStopEndsEveryStream() throws Exception {
        start();
        BlockingQueue<String> lines = lines(open());
        app.after();
        assertThat(next(lines, "end")).isEqualTo("end");
    }

    private void start() throws Exception {
        app = new DropwizardTestSupport<>(App.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
        app.before();
    }

    private HttpResponse<Stream<String>> open() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(LoopbackHttp.url(app.getLocalPort(), "/minimal/stream"))).build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofLines()).get(20, TimeUnit.SECONDS);
    }

    /** The stream's lines as they arrive, read on a thread of their own; "end" once the stream ended. */
    private static BlockingQueue<String> lines(HttpResponse<Stream<String>> response) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reading = new Thread(() -> {
            try {
                response.body().forEach(lines::add);
            } catch (RuntimeException closed) {
                // the stream ended with an error
            } finally {
                lines.add("end");
            }
        }, "minimal-sse-reader");
        reading.setDaemon(true);
        reading.start();
        return lines;
    }

    /** The next line that starts with {@code prefix} (or "end"), within the bound. */
    private static String next(BlockingQueue<String> lines, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && (line.startsWith(prefix) || line.equals("end"))) {
                return line;
            }
        }
        throw new AssertionError("no line starting with " + prefix + " within " + BOUND);
    }
}
