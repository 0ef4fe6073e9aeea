package com.example.threading.work;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.example.threading.testing.MachineFacts;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.jackson.JacksonFeature;
import io.dropwizard.metrics.servlets.PingServlet;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.slf4j.LoggerFactory;

/**
 * A bounded one-off measurement, not a test: the server CPU of the cheapest request Jersey can answer, against the
 * admin port's {@code /ping} servlet, on one bare Jetty with neither Dropwizard's handlers nor this service's filters
 * and metrics. It is the floor under every {@code /work} pattern: one resource method that returns a record of the
 * {@code /work} answer's shape, written by Jackson. Same Jetty and Jersey as the service, two connectors on one thread
 * pool; h2load drives each path as the {@code cost} scenario does (HTTP/1.1, 16 connections, two warm-ups, then a
 * measured stretch), and the CPU is this process's {@code utime + stime}. Prints the JDK, the CPU and the load average.
 * <pre>{@code
 * mvn -B -q package -DskipTests && mvn -B -q test-compile
 * java -cp target/test-classes:target/threading-reference.jar com.example.threading.work.JerseyFloor
 * }</pre>
 */
public final class JerseyFloor {

    private static final int WARMUP_SECONDS = 30;
    private static final int MEASURED_SECONDS = 10;

    private JerseyFloor() {
    }

    /** The record {@code /floor} answers, the shape of a {@code /work} answer. */
    public record Answer(String pattern, long requestedMs, long waitedMs, String thread, boolean virtualThread) {
    }

    /** The cheapest JAX-RS resource: no parameters, no work. */
    @Path("/floor")
    @Produces(MediaType.APPLICATION_JSON)
    public static final class FloorResource {
        /** Answers at once. */
        @GET
        public Answer floor() {
            return new Answer("floor", 0, 0, Thread.currentThread().getName(), false);
        }
    }

    /** Starts the server, measures {@code /ping} then {@code /floor}, twice, and stops. */
    public static void main(String[] args) throws Exception {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        QueuedThreadPool threads = new QueuedThreadPool(1024, 8);
        threads.setName("floor");
        Server server = new Server(threads);
        ServerConnector admin = connector(server, "admin");
        ServerConnector application = connector(server, "application");

        ServletContextHandler adminContext = new ServletContextHandler();
        adminContext.addServlet(new ServletHolder(new PingServlet()), "/ping");
        ServletContextHandler applicationContext = new ServletContextHandler();
        ResourceConfig jersey = new ResourceConfig().register(FloorResource.class)
                .register(new JacksonFeature(Jackson.newObjectMapper()));
        applicationContext.addServlet(new ServletHolder(new ServletContainer(jersey)), "/*");
        // Each connector reaches its own context only, as Dropwizard's default server routes them.
        adminContext.setVirtualHosts(List.of("@admin"));
        applicationContext.setVirtualHosts(List.of("@application"));
        server.setHandler(new ContextHandlerCollection(adminContext, applicationContext));
        server.start();
        try {
            System.out.printf("java %s, CPU %s, %d CPUs, load average %s%n", System.getProperty("java.version"),
                    MachineFacts.cpuModel(), Runtime.getRuntime().availableProcessors(), MachineFacts.loadAverage());
            String ping = "http://127.0.0.1:" + admin.getLocalPort() + "/ping";
            String floor = "http://127.0.0.1:" + application.getLocalPort() + "/floor";
            for (int round = 1; round <= 2; round++) {
                double pingMicros = microsPerRequest(ping);
                double floorMicros = microsPerRequest(floor);
                System.out.printf("round %d: /ping %.1f us, Jersey /floor %.1f us of server CPU per request: %.2fx%n",
                        round, pingMicros, floorMicros, floorMicros / pingMicros);
            }
            System.out.printf("load average at the end %s%n", MachineFacts.loadAverage());
        } finally {
            server.stop();
        }
    }

    private static ServerConnector connector(Server server, String name) {
        ServerConnector connector = new ServerConnector(server);
        connector.setName(name);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        return connector;
    }

    /** Warms {@code url} up with h2load, then measures: CPU time of this process over 2xx answers. */
    private static double microsPerRequest(String url) throws IOException, InterruptedException {
        h2load(url, WARMUP_SECONDS);
        h2load(url, 5); // new connections' first requests recompile a little: out of the measured stretch
        long before = MachineFacts.cpuTicks();
        long answered = h2load(url, MEASURED_SECONDS);
        long ticks = MachineFacts.cpuTicks() - before;
        return ticks * 1_000_000.0 / 100 / answered; // Linux reports CPU time in 1/100 s
    }

    /** Runs h2load on {@code url} for {@code seconds}; returns the requests it counted as succeeded. */
    private static long h2load(String url, int seconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("h2load", "--h1", "-c", "16", "-D", Integer.toString(seconds), url)
                .redirectErrorStream(true).start();
        String output;
        try {
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            process.destroy();
        }
        if (process.waitFor() != 0) {
            throw new IllegalStateException("h2load failed (install it: apt-get install nghttp2-client):\n" + output);
        }
        for (String line : output.split("\n")) {
            if (line.startsWith("requests:")) {
                // requests: N total, N started, N done, N succeeded, N failed, ...
                List<String> words = List.of(line.split("[ ,]+"));
                long succeeded = Long.parseLong(words.get(words.indexOf("succeeded") - 1));
                long failed = Long.parseLong(words.get(words.indexOf("failed") - 1));
                if (failed > 0) {
                    throw new IllegalStateException(failed + " requests failed:\n" + output);
                }
                return succeeded;
            }
        }
        throw new IllegalStateException("no requests line in h2load's output:\n" + output);
    }
}
