package com.example.threading.floors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.jackson.JacksonFeature;
import io.dropwizard.metrics.servlets.PingServlet;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.slf4j.LoggerFactory;

/**
 * A bounded one-off measurement, not a test: the server CPU of the cheapest requests Jersey can answer, against the
 * admin port's {@code /ping} servlet, on one bare Jetty with neither Dropwizard's handlers nor this service's filters
 * and metrics. They are the floors under the {@code /work} patterns: {@code /floor}, one resource method that returns
 * a record of the {@code /work} answer's shape, written by Jackson (under the synchronous patterns), and
 * {@code /floor/async}, the same record through an {@code AsyncResponse} resumed on a cached thread pool (under the
 * async ones). Same Jetty and Jersey as the service, two connectors on one thread pool; h2load drives each path as the
 * {@code cost} scenario does (HTTP/1.1, 16 connections, two warm-ups, then a measured stretch), and the CPU is this
 * process's {@code utime + stime}. Prints the JDK, the CPU and the load average.
 * <pre>{@code
 * mvn -B -q package -DskipTests && mvn -B -q -f load/floors/pom.xml package
 * java -cp load/floors/target/threading-floors.jar:target/threading-reference.jar com.example.threading.floors.JerseyFloor
 * }</pre>
 */
public final class JerseyFloor {

    private static final ExecutorService CACHED = Executors.newCachedThreadPool();

    private JerseyFloor() {
    }

    /** The record {@code /floor} answers, the shape of a {@code /work} answer. */
    public record Answer(String pattern, long requestedMs, long waitedMs, String thread, boolean virtualThread) {
    }

    /** The cheapest JAX-RS resources: no parameters, no work. */
    @Path("/floor")
    @Produces(MediaType.APPLICATION_JSON)
    public static final class FloorResource {
        /** Answers at once. */
        @GET
        public Answer floor() {
            return new Answer("floor", 0, 0, Thread.currentThread().getName(), false);
        }

        /** Answers from a thread of a cached pool, as the async patterns hand their requests off. */
        @GET
        @Path("async")
        public void async(@Suspended AsyncResponse response) {
            CACHED.execute(() -> response.resume(new Answer("floor-async", 0, 0, Thread.currentThread().getName(), false)));
        }
    }

    /** Starts the server, measures {@code /ping}, {@code /floor} and {@code /floor/async}, twice, and stops. */
    public static void main(String[] args) throws Exception {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        ServletContextHandler adminContext = new ServletContextHandler();
        adminContext.addServlet(new ServletHolder(new PingServlet()), "/ping");
        ServletContextHandler applicationContext = new ServletContextHandler();
        ResourceConfig jersey = new ResourceConfig().register(FloorResource.class)
                .register(new JacksonFeature(Jackson.newObjectMapper()));
        ServletHolder jerseyHolder = new ServletHolder(new ServletContainer(jersey));
        jerseyHolder.setAsyncSupported(true);
        applicationContext.addServlet(jerseyHolder, "/*");
        BareJetty server = new BareJetty(adminContext, applicationContext);
        server.start();
        try {
            System.out.println(BareJetty.machine());
            for (int round = 1; round <= 2; round++) {
                double pingMicros = H2loadCpu.microsPerRequest(server.adminUrl("/ping"), H2loadCpu.CONNECTIONS);
                double floorMicros = H2loadCpu.microsPerRequest(server.applicationUrl("/floor"), H2loadCpu.CONNECTIONS);
                double asyncMicros = H2loadCpu.microsPerRequest(server.applicationUrl("/floor/async"), H2loadCpu.CONNECTIONS);
                System.out.printf("round %d: /ping %.1f us, Jersey /floor %.1f us (%.2fx), Jersey /floor/async %.1f us (%.2fx) of server "
                        + "CPU per request%n", round, pingMicros, floorMicros, floorMicros / pingMicros, asyncMicros, asyncMicros / pingMicros);
            }
            System.out.printf("load average at the end %s%n", MachineFacts.loadAverage());
        } finally {
            server.stop();
            CACHED.shutdownNow();
        }
    }
}
