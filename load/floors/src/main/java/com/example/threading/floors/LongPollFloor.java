package com.example.threading.floors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.dropwizard.metrics.servlets.PingServlet;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.LoggerFactory;

/**
 * A bounded one-off measurement, not a test: the server CPU of the cheapest long-poll answer Jetty allows, against
 * the admin port's {@code /ping} servlet, on one bare Jetty with nothing of Dropwizard or of this service. It is the
 * floor under the long poll's answer: polls are parked, and one thread answers every parked poll with the same 141
 * bytes (the size of one of this service's one-event answers) 20 times a second. h2load holds 1,000 connections that
 * poll again as soon as they are answered, as the {@code cost} scenario does; the CPU is this process's
 * {@code utime + stime} over the answers. Three ways to park and answer, each measured:
 * <ul>
 *   <li>{@code write listener}: a servlet parks each poll's {@code AsyncContext}; the answering thread registers a
 *       {@code WriteListener}, which Jetty runs on one of its threads to write and complete. A client that does not
 *       read delays only its own answer. This service's way.</li>
 *   <li>{@code blocking write}: the same servlet, but the answering thread writes and completes each answer itself.
 *       No hand-off to another thread, but one client that stops reading stalls every answer after its own: shown
 *       for its cost only, not a way to copy.</li>
 *   <li>{@code Jetty Handler, no Servlet}: Jetty's own request API ({@code /handler/poll}): a {@code Handler} parks
 *       each request, and the answering thread writes each answer with one non-blocking {@code Response.write}, whose
 *       callback completes the request.</li>
 * </ul>
 * Prints the JDK, the CPU and the load average.
 * <pre>{@code
 * mvn -B -q package -DskipTests && mvn -B -q -f load/floors/pom.xml package
 * java -cp load/floors/target/threading-floors.jar:target/threading-reference.jar com.example.threading.floors.LongPollFloor
 * }</pre>
 */
public final class LongPollFloor {

    private static final int POLLS = 1_000;
    private static final long EVENT_PERIOD_MILLIS = 50;
    private static final long POLL_TIMEOUT_MILLIS = 60_000;
    private static final byte[] ANSWER = ("{\"events\":[{\"id\":1,\"topic\":\"lp\",\"time\":\"2026-11-27T16:24:26.017534463Z\","
            + "\"data\":{\"data\":\"x\"}}],\"missed\":false,\"lastId\":1,\"epoch\":\"mwz6yudu-2\"}").getBytes(StandardCharsets.UTF_8);

    private LongPollFloor() {
    }

    /** How the answering thread hands each parked poll its answer. */
    private enum Answering {
        WRITE_LISTENER("write listener"), BLOCKING_WRITE("blocking write"), JETTY_HANDLER("Jetty Handler, no Servlet");

        private final String described;

        Answering(String described) {
            this.described = described;
        }
    }

    /** The parked polls of one way of answering: added by Jetty's threads, all taken by the answering thread. */
    private static final class Parked<T> {

        private List<T> polls = new ArrayList<>();

        synchronized void add(T poll) {
            polls.add(poll);
        }

        synchronized List<T> takeAll() {
            List<T> taken = polls;
            polls = new ArrayList<>(taken.size());
            return taken;
        }
    }

    /** Parks every request without the Servlet API (Jetty's own {@code Handler}); {@link #answerAll} answers them. */
    private static final class ParkingHandler extends Handler.Abstract {

        private record Poll(Response response, Callback callback) {
        }

        private final Parked<Poll> parked = new Parked<>();

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            parked.add(new Poll(response, callback));
            return true;
        }

        /** Answers every parked request with one non-blocking write each, on the calling thread. */
        void answerAll() {
            for (Poll poll : parked.takeAll()) {
                poll.response().setStatus(200);
                poll.response().getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                poll.response().getHeaders().put(HttpHeader.CONTENT_LENGTH, ANSWER.length);
                poll.response().write(true, ByteBuffer.wrap(ANSWER), poll.callback());
            }
        }
    }

    /** Parks every GET; {@link #answerAll} answers whatever is parked. */
    private static final class ParkingServlet extends HttpServlet {

        private final Parked<AsyncContext> parked = new Parked<>();
        private volatile Answering answering = Answering.WRITE_LISTENER;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) {
            AsyncContext context = request.startAsync();
            context.setTimeout(POLL_TIMEOUT_MILLIS);
            parked.add(context);
        }

        /** Answers every parked poll, on the calling thread or through a write listener. */
        void answerAll() {
            for (AsyncContext context : parked.takeAll()) {
                try {
                    HttpServletResponse response = (HttpServletResponse) context.getResponse();
                    ServletOutputStream out = response.getOutputStream();
                    if (answering == Answering.BLOCKING_WRITE) {
                        writeHead(response);
                        out.write(ANSWER);
                        context.complete();
                    } else {
                        out.setWriteListener(new AnswerWriter(context, response, out));
                    }
                } catch (IOException | IllegalStateException gone) {
                    // h2load closed the connection at the end of a stretch.
                }
            }
        }
    }

    /** Writes the answer when Jetty says the socket can take it, then completes. */
    private static final class AnswerWriter implements WriteListener {

        private final AsyncContext context;
        private final HttpServletResponse response;
        private final ServletOutputStream out;
        private boolean written;

        AnswerWriter(AsyncContext context, HttpServletResponse response, ServletOutputStream out) {
            this.context = context;
            this.response = response;
            this.out = out;
        }

        @Override
        public void onWritePossible() throws IOException {
            if (!written) {
                written = true;
                writeHead(response);
                out.write(ANSWER);
            }
            if (out.isReady()) {
                context.complete();
            }
        }

        @Override
        public void onError(Throwable failure) {
            context.complete();
        }
    }

    private static void writeHead(HttpServletResponse response) {
        response.setStatus(200);
        response.setContentType("application/json");
        response.setContentLength(ANSWER.length);
    }

    /** Starts the server, measures {@code /ping} then each way of answering, twice, and stops. */
    public static void main(String[] args) throws Exception {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        ServletContextHandler adminContext = new ServletContextHandler();
        adminContext.addServlet(new ServletHolder(new PingServlet()), "/ping");
        ServletContextHandler applicationContext = new ServletContextHandler();
        ParkingServlet polls = new ParkingServlet();
        ServletHolder pollHolder = new ServletHolder(polls);
        pollHolder.setAsyncSupported(true);
        applicationContext.addServlet(pollHolder, "/poll");
        ParkingHandler handlerPolls = new ParkingHandler();
        ContextHandler handlerContext = new ContextHandler(handlerPolls, "/handler");
        BareJetty server = new BareJetty(adminContext, applicationContext, handlerContext);
        ScheduledExecutorService events = Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "floor-events"));
        server.start();
        try {
            events.scheduleAtFixedRate(() -> {
                polls.answerAll();
                handlerPolls.answerAll();
            }, EVENT_PERIOD_MILLIS, EVENT_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            System.out.println(BareJetty.machine());
            String ping = server.adminUrl("/ping");
            String poll = server.applicationUrl("/poll");
            String handlerPoll = server.applicationUrl("/handler/poll");
            for (int round = 1; round <= 2; round++) {
                double pingMicros = H2loadCpu.microsPerRequest(ping, H2loadCpu.CONNECTIONS);
                StringBuilder line = new StringBuilder(String.format("round %d: /ping %.1f us", round, pingMicros));
                for (Answering answering : Answering.values()) {
                    polls.answering = answering;
                    double answerMicros = H2loadCpu.microsPerRequest(answering == Answering.JETTY_HANDLER ? handlerPoll : poll, POLLS);
                    line.append(String.format(", a long-poll answer (%s) %.1f us: %.2fx", answering.described, answerMicros,
                            answerMicros / pingMicros));
                }
                System.out.println(line.append(" of server CPU per request"));
            }
            System.out.printf("load average at the end %s%n", MachineFacts.loadAverage());
        } finally {
            events.shutdownNow();
            server.stop();
        }
    }
}
