package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.codahale.metrics.Counter;
import com.codahale.metrics.Meter;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.RawHttpConnection;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.util.FutureCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Clients that reset their connection (HTTP/1.1, SO_LINGER 0) or their stream (HTTP/2) while an answer is on its
 * way: counted in {@code http.client-disconnects}, no WARN or ERROR in the log (Jersey would log "Error while
 * closing the output stream" with a stack trace each time), and no request left in flight.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ClientDisconnectsTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0s"));
    private static final LoopbackHttp H2 = new LoopbackHttp(HttpClient.Version.HTTP_2);
    private static final int RESETS = 3;

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @AfterAll
    static void closeClient() {
        H2.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/work/cached?ms=300", "/work/blocking?ms=300", "/work/bounded?ms=300", "/fanout?n=2&ms=300"})
    void http1ResetsAreCountedNotLoggedAsErrors(String pathAndQuery) throws Exception {
        long before = disconnects().getCount();
        for (int i = 0; i < RESETS; i++) {
            try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
                connection.send(RawHttpConnection.requestHead("GET", pathAndQuery));
                Thread.sleep(100);
                connection.reset();
            }
        }
        assertCountedQuietlyAndNothingInFlight(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/work/cached?ms=300", "/work/blocking?ms=300", "/fanout?n=2&ms=300"})
    void http2StreamResetsAreCountedNotLoggedAsErrors(String pathAndQuery) throws Exception {
        H2.get(LoopbackHttp.url(APP.getLocalPort(), "/work/cached?ms=1")); // the h2c upgrade, once
        long before = disconnects().getCount();
        for (int i = 0; i < RESETS; i++) {
            CompletableFuture<HttpResponse<String>> answer = H2.client().sendAsync(
                    LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), pathAndQuery)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Thread.sleep(100);
            answer.cancel(true); // RST_STREAM
        }
        assertCountedQuietlyAndNothingInFlight(before);
    }

    /**
     * A client that drops its HTTP/2 connection (TCP close, no GOAWAY) while its streams wait for their answers: the
     * writes fail with a {@code ClosedChannelException}, which Jersey logged as "Error while closing the output
     * stream in order to commit response" at ERROR.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/work/cached?ms=300", "/work/blocking?ms=300", "/fanout?n=2&ms=300"})
    void http2ConnectionsDroppedMidAnswerAreCountedNotLoggedAsErrors(String pathAndQuery) throws Exception {
        endSessionMidAnswer(pathAndQuery, session -> session.getEndPoint().close());
    }

    /**
     * A client that breaks the HTTP/2 protocol (a DATA frame on stream 0) while its streams wait for their answers:
     * Jetty fails the session and resets each of its streams with a plain {@code EOFException("reset")}, which Jersey
     * logged as "Error while closing the output stream in order to commit response" at ERROR (a fuzz run's h2 abuse).
     */
    @ParameterizedTest
    @ValueSource(strings = {"/work/cached?ms=300", "/work/blocking?ms=300", "/fanout?n=2&ms=300"})
    void http2SessionsTheClientBrokeMidAnswerAreCountedNotLoggedAsErrors(String pathAndQuery) throws Exception {
        endSessionMidAnswer(pathAndQuery, session -> {
            // A frame header: length 1, type DATA, no flags, stream 0; then one byte of payload. DATA on stream 0 is a
            // connection error (RFC 9113, 6.1): the server fails the whole session.
            byte[] dataOnStreamZero = {0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
            FutureCallback written = new FutureCallback();
            session.getEndPoint().write(written, ByteBuffer.wrap(dataOnStreamZero));
            try {
                written.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException closed) {
                // The server may read the frame and close the connection before the client's write reports done: the
                // frame got there, which is what this test needs; what the server did with it is checked below.
                assertThat(closed.getCause()).isInstanceOf(ClosedChannelException.class);
            }
        });
    }

    /** How a test's client ends its HTTP/2 session while answers are on their way. */
    private interface SessionEnd {
        void apply(HTTP2Session session) throws Exception;
    }

    /** Sends {@code RESETS} requests for {@code pathAndQuery} on one HTTP/2 session, ends it with {@code end}, checks. */
    private void endSessionMidAnswer(String pathAndQuery, SessionEnd end) throws Exception {
        long before = disconnects().getCount();
        HTTP2Client client = new HTTP2Client();
        client.start();
        try {
            Session session = client.connect(new InetSocketAddress("127.0.0.1", APP.getLocalPort()), new Session.Listener() { })
                    .get(10, TimeUnit.SECONDS);
            for (int i = 0; i < RESETS; i++) {
                MetaData.Request request = new MetaData.Request("GET", "http", new HostPortHttpField("127.0.0.1:" + APP.getLocalPort()),
                        pathAndQuery, HttpVersion.HTTP_2, HttpFields.EMPTY, -1);
                session.newStream(new HeadersFrame(request, null, true), new Stream.Listener() { }).get(10, TimeUnit.SECONDS);
            }
            Thread.sleep(100);
            end.apply((HTTP2Session) session);
        } finally {
            client.stop();
        }
        assertCountedQuietlyAndNothingInFlight(before);
    }

    private void assertCountedQuietlyAndNothingInFlight(long before) {
        Await.until(() -> disconnects().getCount() - before >= RESETS, Duration.ofSeconds(10),
                RESETS + " disconnects counted in " + JsonErrorsBundle.CLIENT_DISCONNECTS);
        Counter inFlight = APP.getEnvironment().metrics()
                .counter("io.dropwizard.jetty.MutableServletContextHandler.active-requests");
        Await.until(() -> inFlight.getCount() == 0, Duration.ofSeconds(10), "no request in flight");
        assertThat(disconnects().getCount() - before).as("each reset counted once").isEqualTo(RESETS);
        assertThat(log.atLeast(Level.WARN)).as("WARN/ERROR log lines").isEmpty();
    }

    private static Meter disconnects() {
        return APP.getEnvironment().metrics().meter(JsonErrorsBundle.CLIENT_DISCONNECTS);
    }
}
