package com.example.threading.load.scenario.sse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;

/**
 * Long-polls over h2c on Jetty's HttpClient (the engine's client library): {@code n} polls of one topic sent at once as
 * HTTP/2 streams (no thread waits for an answer; Jetty opens another connection when one carries as many streams as the
 * server allows), each answer's completion time and event count recorded.
 *
 * <p>Thread-safety: the scenario's thread starts the client, sends a round and waits; the answers are recorded on Jetty's
 * threads into atomics and a latch; {@link Round} is read after its latch.
 */
final class ParkedPolls implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;

    /** A started h2c client for rounds of up to {@code polls} polls. */
    ParkedPolls(int polls, long idleTimeoutMs) throws Exception {
        client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
        client.setMaxConnectionsPerDestination(256);
        client.setMaxRequestsQueuedPerDestination(polls + 1024);
        client.setIdleTimeout(idleTimeoutMs);
        client.setConnectTimeout(10_000);
        client.start();
    }

    /** One round: its polls' answers as they come. */
    static final class Round {
        private final CountDownLatch done;
        private final AtomicLong lastAnsweredNanos = new AtomicLong();
        private final AtomicInteger withEvent = new AtomicInteger();
        private final AtomicInteger other = new AtomicInteger();
        private volatile String lastProblem = "";

        private Round(int polls) {
            done = new CountDownLatch(polls);
        }

        /** Waits until every poll was answered or {@code deadlineNanos}; whether all were. */
        boolean await(long deadlineNanos) throws InterruptedException {
            return done.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        /** When the last answer completed (System.nanoTime). */
        long lastAnsweredNanos() {
            return lastAnsweredNanos.get();
        }

        /** Polls answered 200 with exactly the one event published. */
        int withEvent() {
            return withEvent.get();
        }

        /** Polls answered otherwise (refused, timed out, failed). */
        int other() {
            return other.get();
        }

        String lastProblem() {
            return lastProblem;
        }
    }

    /** Sends {@code polls} polls of {@code topic} after {@code cursor} ({@code timeout=timeoutSeconds}) to {@code app}. */
    Round send(URI app, String topic, long cursor, int polls, int timeoutSeconds) {
        Round round = new Round(polls);
        URI uri = app.resolve("/events?topic=" + topic + ":" + cursor + "&timeout=" + timeoutSeconds);
        for (int i = 0; i < polls; i++) {
            client.newRequest(uri).timeout(timeoutSeconds + 30L, TimeUnit.SECONDS).send(new BufferingResponseListener(1 << 16) {
                @Override
                public void onComplete(Result result) {
                    long at = System.nanoTime();
                    round.lastAnsweredNanos.accumulateAndGet(at, Math::max);
                    if (result.isSucceeded() && result.getResponse().getStatus() == 200 && events(getContentAsString()) == 1) {
                        round.withEvent.incrementAndGet();
                    } else {
                        round.other.incrementAndGet();
                        round.lastProblem = result.isSucceeded() ? "status " + result.getResponse().getStatus() : String.valueOf(result.getFailure());
                    }
                    round.done.countDown();
                }
            });
        }
        return round;
    }

    private static int events(String body) {
        try {
            JsonNode json = JSON.readTree(body);
            return json.path("events").size();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            // Nothing more to release.
        }
    }
}
