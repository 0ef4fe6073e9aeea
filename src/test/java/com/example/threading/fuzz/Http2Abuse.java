package com.example.threading.fuzz;

import com.example.threading.testing.RawHttpConnection.Reply;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP/2 (h2c, prior knowledge) against the application port with Jetty's low-level HTTP/2 client, which sends
 * whatever method, path and headers it is given: generated requests on many streams of one connection at once,
 * storms of streams reset right after their HEADERS (RST_STREAM, the "rapid reset" pattern), many streams at once,
 * and more streams at once than the server allows.
 *
 * <p>A stream whose session ends first is answered {@code -1} too: Jetty's client fails the whole session when its
 * own HPACK encoder refuses one stream's HEADERS (a header list above the server's {@code SETTINGS_MAX_HEADER_LIST_SIZE},
 * e.g. a 9,000-character path), and then tells the session's other streams only {@code onClosed}, neither
 * {@code onReset} nor {@code onFailure}; without the session's end those streams would wait forever.
 *
 * <p>Thread-safety: the client is thread-safe; each call uses a connection of its own; the stream and session
 * listeners run on the client's threads and complete futures the calling thread waits on.
 */
final class Http2Abuse implements AutoCloseable {

    private static final long WAIT_SECONDS = 30;

    private final HTTP2Client client = new HTTP2Client();
    private final int port;

    Http2Abuse(int port) throws Exception {
        this.port = port;
        client.start();
    }

    /** Sends every request on its own stream of one new connection, all at once; the answers in the same order (status -1 if the stream failed). */
    List<Reply> send(List<FuzzRequest> requests) throws Exception {
        SessionEnd end = new SessionEnd();
        Session session = connect(end);
        try {
            List<CompletableFuture<Reply>> answers = new ArrayList<>();
            for (FuzzRequest request : requests) {
                answers.add(end.answersTo(exchange(session, request)));
            }
            List<Reply> replies = new ArrayList<>();
            for (CompletableFuture<Reply> answer : answers) {
                try {
                    replies.add(answer.get(WAIT_SECONDS, TimeUnit.SECONDS));
                } catch (TimeoutException unanswered) {
                    throw new AssertionError(unansweredStreams(requests, answers), unanswered);
                }
            }
            return replies;
        } finally {
            session.close(ErrorCode.NO_ERROR.code, "done", Callback.NOOP);
        }
    }

    /** Which of the requests sent together still have no answer (neither a response nor a reset), for the failure message. */
    private static String unansweredStreams(List<FuzzRequest> requests, List<CompletableFuture<Reply>> answers) {
        StringBuilder message = new StringBuilder("h2 streams without an answer (no response, no reset) after " + WAIT_SECONDS + " s:");
        for (int i = 0; i < answers.size(); i++) {
            if (!answers.get(i).isDone()) {
                message.append("\n  ").append(requests.get(i));
            }
        }
        return message.toString();
    }

    /** Opens {@code streams} streams to {@code target} and resets each one right after its HEADERS. */
    void resetStorm(String target, int streams) throws Exception {
        Session session = connect(new SessionEnd());
        try {
            for (int i = 0; i < streams && !session.isClosed(); i++) {
                CompletableFuture<Stream> opened = session.newStream(headers(request("GET", target, HttpFields.EMPTY), true),
                        new Stream.Listener() { });
                opened.thenAccept(stream -> stream.reset(new ResetFrame(stream.getId(), ErrorCode.CANCEL_STREAM_ERROR.code), Callback.NOOP));
            }
        } finally {
            session.close(ErrorCode.NO_ERROR.code, "done", Callback.NOOP);
        }
    }

    /** The answers of {@code streams} concurrent GETs of {@code target} on one connection (more than the server allows at once if asked). */
    List<Reply> manyStreams(String target, int streams) throws Exception {
        List<FuzzRequest> requests = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            requests.add(get(target));
        }
        return send(requests);
    }

    private static FuzzRequest get(String target) {
        return new FuzzRequest("h2 GET " + target, false, "GET", target, List.of(), new byte[0], FuzzRequest.Framing.NONE);
    }

    /**
     * The answers of {@code extra} more concurrent GETs of {@code target} than the server allows at once on one
     * connection (its SETTINGS_MAX_CONCURRENT_STREAMS): the client is first told to ignore that limit, which Jetty's
     * client otherwise takes as its own. Also returns the server's limit, as the first element's status.
     */
    List<Reply> overTheStreamLimit(String target, int extra) throws Exception {
        SessionEnd end = new SessionEnd();
        Session session = connect(end);
        try {
            // One round trip, so the server's SETTINGS have arrived and set the client's limit; then lift it.
            end.answersTo(exchange(session, get(target.replaceAll("\\?.*", "") + "?timeout=1"))).get(WAIT_SECONDS, TimeUnit.SECONDS);
            HTTP2Session http2 = (HTTP2Session) session;
            int limit = http2.getMaxLocalStreams();
            http2.setMaxLocalStreams(-1);
            List<CompletableFuture<Reply>> answers = new ArrayList<>();
            for (int i = 0; i < limit + extra; i++) {
                answers.add(end.answersTo(exchange(session, get(target))));
            }
            List<Reply> replies = new ArrayList<>();
            replies.add(new Reply(limit, Map.of(), "the server's limit"));
            for (CompletableFuture<Reply> answer : answers) {
                replies.add(answer.get(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            return replies;
        } finally {
            session.close(ErrorCode.NO_ERROR.code, "done", Callback.NOOP);
        }
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the HTTP/2 client", e);
        }
    }

    private Session connect(SessionEnd end) throws Exception {
        return client.connect(new InetSocketAddress("127.0.0.1", port), end).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Answers {@code -1} every stream of its session still without an answer once the session has failed or closed:
     * no frame can arrive after that. Registered answers that are already complete are left as they are.
     */
    private static final class SessionEnd implements Session.Listener {
        private final Queue<CompletableFuture<Reply>> answers = new ConcurrentLinkedQueue<>();
        private volatile String ended;

        /** Registers {@code answer} to be completed when the session ends first; returns it. */
        CompletableFuture<Reply> answersTo(CompletableFuture<Reply> answer) {
            answers.add(answer);
            if (ended != null) {
                end(ended); // the session ended while the stream was being opened
            }
            return answer;
        }

        @Override
        public void onFailure(Session session, Throwable failure, Callback callback) {
            end("the client's session failed: " + failure);
            callback.succeeded();
        }

        @Override
        public void onClose(Session session, GoAwayFrame frame, Callback callback) {
            end("the session closed: " + frame);
            callback.succeeded();
        }

        private void end(String why) {
            ended = why;
            for (CompletableFuture<Reply> answer : answers) {
                answer.complete(new Reply(-1, Map.of(), "no answer before " + why));
            }
        }
    }

    private CompletableFuture<Reply> exchange(Session session, FuzzRequest request) {
        CompletableFuture<Reply> answer = new CompletableFuture<>();
        HttpFields.Mutable fields = HttpFields.build();
        for (String line : request.headers()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.add(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        boolean withBody = request.body().length > 0;
        MetaData.Request metaData;
        try {
            metaData = request(request.method(), request.target(), fields);
        } catch (RuntimeException refusedByTheClient) {
            answer.complete(new Reply(-1, Map.of(), "the client refused to send it: " + refusedByTheClient));
            return answer;
        }
        Listener listener = new Listener(answer);
        session.newStream(headers(metaData, !withBody), listener).whenComplete((stream, failure) -> {
            if (failure != null) {
                answer.complete(new Reply(-1, Map.of(), "stream not opened: " + failure));
            } else if (withBody) {
                stream.data(new DataFrame(stream.getId(), ByteBuffer.wrap(request.body()), true), Callback.NOOP);
            }
        });
        return answer;
    }

    private MetaData.Request request(String method, String target, HttpFields fields) {
        return new MetaData.Request(method, "http", new HostPortHttpField("127.0.0.1:" + port), target,
                HttpVersion.HTTP_2, fields, -1);
    }

    private static HeadersFrame headers(MetaData.Request request, boolean endStream) {
        return new HeadersFrame(request, null, endStream);
    }

    /** Collects one stream's answer: status and headers, then the DATA, until the end of the stream or a reset. */
    private static final class Listener implements Stream.Listener {
        private final CompletableFuture<Reply> answer;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private int status = -1;
        private final Map<String, String> headers = new LinkedHashMap<>();

        Listener(CompletableFuture<Reply> answer) {
            this.answer = answer;
        }

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            if (frame.getMetaData() instanceof MetaData.Response response) {
                status = response.getStatus();
                response.getHttpFields().forEach(field -> headers.put(field.getLowerCaseName(), field.getValue()));
            }
            if (frame.isEndStream()) {
                complete();
            } else {
                stream.demand();
            }
        }

        @Override
        public void onDataAvailable(Stream stream) {
            while (true) {
                Stream.Data data = stream.readData();
                if (data == null) {
                    stream.demand();
                    return;
                }
                ByteBuffer bytes = data.frame().getByteBuffer();
                byte[] chunk = new byte[bytes.remaining()];
                bytes.get(chunk);
                body.writeBytes(chunk);
                data.release();
                if (data.frame().isEndStream()) {
                    complete();
                    return;
                }
            }
        }

        @Override
        public void onReset(Stream stream, ResetFrame frame, Callback callback) {
            answer.complete(new Reply(-1, Map.of(), "reset by the server: " + ErrorCode.toString(frame.getError(), "?")));
            callback.succeeded();
        }

        @Override
        public void onFailure(Stream stream, int error, String reason, Throwable failure, Callback callback) {
            answer.complete(new Reply(-1, Map.of(), "failed: " + reason + " " + failure));
            callback.succeeded();
        }

        private void complete() {
            answer.complete(new Reply(status, Map.copyOf(headers), body.toString(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }
}
