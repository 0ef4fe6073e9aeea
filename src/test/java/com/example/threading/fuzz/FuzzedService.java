package com.example.threading.fuzz;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.JettyInFlight;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import com.example.threading.testing.RawHttpConnection.Reply;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Server;

/**
 * The real service the fuzz runs against: {@code config.yml} on loopback and random ports, with short long-poll
 * bounds (default wait 2 s, at most {@value FuzzInputs#MAX_POLL_SECONDS} s, a tick every second) so that every bound
 * can be reached within the run, and a publish token so that 401 is reached too ({@link AuthFuzzTest} adds JWT access
 * on top). Knows how to send one
 * {@link FuzzRequest} and what "quiet" means afterwards.
 *
 * <p>Thread-safety: {@link #send} may be called from many threads at once (one connection each); start, stop and
 * the quiet check run on the test thread.
 */
final class FuzzedService {

    /** Gauges that count what is parked, waiting or holding a place; each must be back to zero after the fuzz. */
    static final List<String> IDLE_GAUGES = List.of("events.parked", "events.blocking.waiting", "events.sse.open",
            "events.websocket.open", "work.bounded.places-taken",
            "work.thread-per-request.live-threads", "client.fanout.in-flight", "client.fanout.common.in-flight");
    /** Counters of what is in flight; each must be back to zero after the fuzz. */
    static final List<String> IDLE_COUNTERS = List.of("io.dropwizard.jetty.MutableServletContextHandler.active-requests",
            "work.cached.executor.running", "work.bounded.executor.running", "client.fanout.executor.running");
    /** How long a stop may wait for what is in flight ({@code server.shutdownGracePeriod}); nothing should be. */
    private static final long GRACE_PERIOD_MS = 5_000;
    /** When, into a stop, the server is dumped in case the stop hangs: one second before the grace period ends. */
    private static final long DUMP_INTO_STOP_MS = GRACE_PERIOD_MS - 1_000;

    private final DropwizardTestSupport<ThreadingConfiguration> support;
    private final LoopbackHttp http = new LoopbackHttp();

    /** The service as described above, with {@code more} settings (e.g. another {@code events.auth}). */
    FuzzedService(ConfigOverride... more) {
        List<ConfigOverride> overrides = new ArrayList<>(List.of(
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("events.tickPeriod", "1s"),
                ConfigOverride.config("events.defaultTimeout", "2s"),
                ConfigOverride.config("events.maxTimeout", FuzzInputs.MAX_POLL_SECONDS + "s"),
                ConfigOverride.config("events.publishToken", FuzzInputs.TOKEN),
                ConfigOverride.config("server.shutdownGracePeriod", GRACE_PERIOD_MS + "ms")));
        overrides.addAll(List.of(more));
        support = new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml", overrides.toArray(ConfigOverride[]::new));
    }

    /** Starts the service. */
    void start() throws Exception {
        support.before();
    }

    /**
     * Stops the service and the client. A stop that times out says what Jetty still held {@value #DUMP_INTO_STOP_MS} ms
     * into it, one second before the grace period ends: the whole server (both connectors with their connections and
     * HTTP/2 sessions, the handlers with their in-flight counts). A dump taken before the stop once showed nothing in
     * flight when the stop still timed out; a stop that does not hang ends before the dump is taken.
     */
    void stop() {
        Server server = support.getEnvironment().getApplicationContext().getServer();
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "fuzz-stop-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        ScheduledFuture<String> duringStop = watchdog.schedule((Callable<String>) server::dump, DUMP_INTO_STOP_MS, TimeUnit.MILLISECONDS);
        try {
            support.after();
        } catch (RuntimeException stopFailed) {
            throw new IllegalStateException("the graceful stop failed; the server " + DUMP_INTO_STOP_MS + " ms into the stop:\n"
                    + dumpOrWhyNot(duringStop), stopFailed);
        } finally {
            watchdog.shutdownNow();
            http.close();
        }
    }

    /** The stacks of this JVM's threads that are in the service's own code (not parked idle in a pool). */
    private static String threadsInServiceCode() {
        StringBuilder dump = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            boolean inService = Arrays.stream(stack).anyMatch(frame -> frame.getClassName().startsWith("com.example.threading.")
                    && !frame.getClassName().startsWith("com.example.threading.fuzz."));
            if (inService) {
                dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
                Arrays.stream(stack).limit(40).forEach(frame -> dump.append("\tat ").append(frame).append('\n'));
            }
        });
        return dump.length() == 0 ? "(none)" : dump.toString();
    }

    private static String dumpOrWhyNot(ScheduledFuture<String> dump) {
        if (dump.getDelay(TimeUnit.MILLISECONDS) > 0) {
            return "(none: the stop failed before the dump was due, so it did not hang; see the cause)";
        }
        try {
            return dump.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return "(no dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no dump: interrupted)";
        }
    }

    /** Requests Jetty itself counts as in flight on both connectors (its {@code GracefulHandler}, which a graceful stop waits for). */
    long jettyInFlight() {
        return JettyInFlight.count(support.getEnvironment());
    }

    /** The application port. */
    int port() {
        return support.getLocalPort();
    }

    /** The admin port. */
    int adminPort() {
        return support.getAdminPort();
    }

    /** Sends {@code request} on a connection of its own and reads the answer (the server closes the connection). */
    Reply send(FuzzRequest request) {
        try (RawHttpConnection connection = RawHttpConnection.open(request.admin() ? adminPort() : port())) {
            connection.send(request.bytes());
            if (request.framing() == FuzzRequest.Framing.TRUNCATED) {
                connection.socket().shutdownOutput(); // the cut body: the server reads an early end of stream
            }
            return connection.readReply();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (UncheckedIOException e) {
            // The server may close (even reset) a connection whose request it refused before reading all of it.
            return new Reply(-1, Map.of(), String.valueOf(e.getCause()));
        }
    }

    /** Status of a {@link #send(RawInput)} whose connection the server closed while the client was still sending. */
    static final int CLOSED_WHILE_SENDING = -2;

    /**
     * Sends {@code input} piece by piece with its pauses on a connection of its own, half-closes, and reads whatever
     * comes back until the server closes. When the server answers and closes before the client has sent everything
     * (it refused the request early), what it answered is read if it can still be; otherwise the status is
     * {@link #CLOSED_WHILE_SENDING}.
     */
    Reply send(RawInput input) {
        try (RawHttpConnection connection = RawHttpConnection.open(input.admin() ? adminPort() : port())) {
            try {
                for (int i = 0; i < input.pieces().size(); i++) {
                    if (i > 0 && input.pauseMs() > 0) {
                        Thread.sleep(input.pauseMs());
                    }
                    connection.send(input.pieces().get(i));
                }
                connection.socket().shutdownOutput();
            } catch (IOException | UncheckedIOException closedWhileSending) {
                try {
                    Reply early = connection.readReply();
                    return early.status() > 0 ? early : new Reply(CLOSED_WHILE_SENDING, Map.of(), early.body());
                } catch (UncheckedIOException unreadable) {
                    return new Reply(CLOSED_WHILE_SENDING, Map.of(), String.valueOf(closedWhileSending));
                }
            }
            return connection.readReply();
        } catch (UncheckedIOException e) {
            return new Reply(-1, Map.of(), String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits (up to {@code bound}) until nothing is parked, waiting or in flight, then checks that a normal request is
     * answered; {@link AssertionError} otherwise.
     */
    void assertQuietAndResponsive(Duration bound) {
        AdminMetrics admin = new AdminMetrics(http, adminPort());
        for (String gauge : IDLE_GAUGES) {
            Await.until(() -> admin.gauge(gauge) == 0, bound, gauge + " back to 0");
        }
        for (String counter : IDLE_COUNTERS) {
            try {
                Await.until(() -> admin.count(counter) == 0, bound, counter + " back to 0");
            } catch (AssertionError stillBusy) {
                // Which task is still running, and where: the pools' threads that are in this service's code.
                throw new AssertionError(stillBusy.getMessage() + "; threads in the service's code:\n" + threadsInServiceCode(), stillBusy);
            }
        }
        // What a graceful stop would wait for, at Jetty's level (also requests that never reached a servlet context).
        Await.until(() -> jettyInFlight() == 0, bound, "Jetty's GracefulHandler count back to 0");
        Answer normal = http.get(LoopbackHttp.url(port(), "/work/cached?ms=1"));
        if (normal.status() != 200) {
            throw new AssertionError("a normal request after the fuzz: " + normal.status() + " " + normal.body());
        }
    }
}
