package com.example.threading.errors;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletChannelState;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.LoggerFactory;

/**
 * The reproducer behind the connector's idle timeout in {@code config.yml}, on a bare Jetty of the service's version
 * (ee10 servlets, no Dropwizard): an async servlet completes each request after a wait that sweeps ±20 ms around a
 * given time, and the run counts the answers, the connections closed without one, and the WARN lines
 * {@code ServletChannelState} logs ({@code java.util.concurrent.TimeoutException: Idle timeout expired: 1000/1000 ms}).
 * Jetty ignores an idle expiry while a request waits in async, but not one that meets the answer as it completes:
 * during the answer's write it fails the write (the client sees the connection closed), after the servlet has
 * completed and before the exchange has ended it reaches the failure listener that {@code startAsync} registered,
 * which logs it (jetty/jetty.project#14006, open). Waits around a whole number of idle timeouts meet it; waits below
 * the idle timeout never do. Not a test: it is a race of a millisecond or so (a few in 2,000 requests). Run from the
 * repository root after {@code mvn -B -q test-compile}:
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat cp.txt) com.example.threading.errors.IdleExpiryRace \
 *     [idle timeout ms 1000] [wait ms 2000] [requests 400] [clients 40]
 * </pre>
 * ({@code cp.txt} from {@code mvn -q dependency:build-classpath -Dmdep.outputFile=cp.txt -Dmdep.includeScope=test}).
 * Request {@code i} waits {@code wait - 20 + i % 41} ms.
 */
public final class IdleExpiryRace {

    private IdleExpiryRace() {
    }

    /** Runs the race; see the class comment. */
    public static void main(String[] args) throws Exception {
        int idleMs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int centreMs = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        int requests = args.length > 2 ? Integer.parseInt(args[2]) : 400;
        int clients = args.length > 3 ? Integer.parseInt(args[3]) : 40;
        AtomicInteger warnings = new AtomicInteger();
        AppenderBase<ILoggingEvent> counter = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN)) {
                    warnings.incrementAndGet();
                }
            }
        };
        counter.start();
        // Logback without a configuration file logs everything at DEBUG: the run's WARN lines would drown in it.
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(ch.qos.logback.classic.Level.INFO);
        ((Logger) LoggerFactory.getLogger(ServletChannelState.class)).addAppender(counter);

        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(idleMs);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                long waitMs = Long.parseLong(request.getParameter("ms"));
                AsyncContext async = request.startAsync();
                async.setTimeout(0);
                timer.schedule(() -> {
                    response.setStatus(200);
                    async.complete();
                }, waitMs, TimeUnit.MILLISECONDS);
            }
        });
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/wait");
        server.setHandler(context);
        server.start();
        int port = connector.getLocalPort();

        ExecutorService senders = Executors.newFixedThreadPool(clients);
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        long start = System.nanoTime();
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                long waitMs = centreMs - 20 + i % 41;
                all.add(senders.submit(() -> {
                    try (Socket socket = new Socket("127.0.0.1", port)) {
                        OutputStream out = socket.getOutputStream();
                        out.write(("GET /wait?ms=" + waitMs + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        byte[] head = new byte[12];
                        InputStream in = socket.getInputStream();
                        int read = in.readNBytes(head, 0, head.length);
                        if (read == head.length && new String(head, StandardCharsets.US_ASCII).equals("HTTP/1.1 200")) {
                            answered.incrementAndGet();
                        } else if (read == 0) {
                            closed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : all) {
                future.get();
            }
        } finally {
            senders.shutdownNow();
            server.stop();
            timer.shutdownNow();
        }
        System.out.printf("%d requests waiting %d-20..%d+20 ms, idle timeout %d ms, from %d clients in %.1f s on java %s:"
                        + " %d answered 200, %d closed without an answer, %d WARN lines from ServletChannelState%n",
                requests, centreMs, centreMs, idleMs, clients, (System.nanoTime() - start) / 1e9,
                System.getProperty("java.version"), answered.get(), closed.get(), warnings.get());
    }
}
