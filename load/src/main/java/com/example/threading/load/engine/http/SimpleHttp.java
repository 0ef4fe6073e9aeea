package com.example.threading.load.engine.http;

import com.example.threading.load.engine.recording.Outcome;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;

/**
 * One-off requests (probing whether an endpoint or protocol exists, the fan-out calls, admin tasks, events) on a Jetty
 * HttpClient; close it to stop the client.
 *
 * <p>{@link #get} and {@link #post} may be called from any threads at once, as Jetty's HttpClient may; call
 * {@link #close} once nobody is waiting.
 */
public final class SimpleHttp implements AutoCloseable {

    /** Status and body of an answer, or the failure's outcome when there was none. */
    public record Answer(int status, String body, Outcome outcome, String failure) {
    }

    private final HttpClient client;

    private SimpleHttp(HttpClient client) {
        this.client = client;
    }

    /** A started HTTP/1.1 client. */
    public static SimpleHttp http1() {
        return start(new HttpClient(new HttpClientTransportOverHTTP(1)));
    }

    /** A started client speaking HTTP/2 clear text with prior knowledge. */
    public static SimpleHttp h2c() {
        return start(new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client())));
    }

    private static SimpleHttp start(HttpClient client) {
        try {
            client.setConnectTimeout(5_000);
            client.start();
            return new SimpleHttp(client);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client", e);
        }
    }

    /** GET with a total timeout; a failure becomes an Answer with status 0 and its outcome. */
    public Answer get(URI uri, Duration timeout) throws InterruptedException {
        return send(client.newRequest(uri), timeout);
    }

    /** POST without a body (e.g. a Dropwizard admin task), with a total timeout; a failure as for {@link #get}. */
    public Answer post(URI uri, Duration timeout) throws InterruptedException {
        return send(client.newRequest(uri).method(HttpMethod.POST), timeout);
    }

    /** POST of a JSON body (e.g. an event), with a total timeout; a failure as for {@link #get}. */
    public Answer postJson(URI uri, String json, Duration timeout) throws InterruptedException {
        return send(client.newRequest(uri).method(HttpMethod.POST).body(new StringRequestContent("application/json", json)), timeout);
    }

    private static Answer send(Request request, Duration timeout) throws InterruptedException {
        try {
            ContentResponse response = request.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).send();
            return new Answer(response.getStatus(), response.getContentAsString(), Outcome.ofStatus(response.getStatus()), "");
        } catch (ExecutionException e) {
            return new Answer(0, "", Outcome.ofFailure(e.getCause()), String.valueOf(e.getCause()));
        } catch (TimeoutException e) {
            return new Answer(0, "", Outcome.TIMEOUT, e.toString());
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
