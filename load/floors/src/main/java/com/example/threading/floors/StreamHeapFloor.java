package com.example.threading.floors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.slf4j.LoggerFactory;

/**
 * A bounded one-off measurement, not a test: the heap one idle event stream costs on a bare Jetty (the service's
 * version), before any code of this service, in two forms. <em>Servlet</em>: what {@code /events/stream} is built on, a
 * servlet that starts async, writes its first bytes and keeps the {@link AsyncContext}. <em>Core</em>: a Jetty core
 * {@link Handler} that writes the same bytes with {@code Response.write} and keeps the request's callback. h2load opens
 * the streams over h2c (100 per connection, as a browser tab's streams share one) and holds them; the heap is read after
 * forced full GCs with none open and with all open. Prints the JDK, the CPU and the load average.
 * <pre>{@code
 * mvn -B -q package -DskipTests && mvn -B -q -f load/floors/pom.xml package
 * java -cp load/floors/target/threading-floors.jar:target/threading-reference.jar com.example.threading.floors.StreamHeapFloor [streams]
 * }</pre>
 */
public final class StreamHeapFloor {

    private static final int STREAMS_PER_CONNECTION = 100;
    private static final byte[] FIRST = "retry: 3000\n\n".getBytes(StandardCharsets.UTF_8);

    private final Queue<Object> held = new ConcurrentLinkedQueue<>();

    private StreamHeapFloor() {
    }

    /** Measures the servlet form, then the core form, with {@code streams} streams each (default 20,000). */
    public static void main(String[] args) throws Exception {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        System.out.printf("java %s, CPU %s, load average %s%n", System.getProperty("java.version"), MachineFacts.cpuModel(),
                MachineFacts.loadAverage());
        for (String form : new String[] {"servlet", "core"}) {
            double bytes = new StreamHeapFloor().bytesPerStream(form, streams);
            System.out.printf("%s: %,d idle streams over h2c, %.0f bytes (%.1f KiB) of heap per stream%n",
                    form, streams, bytes, bytes / 1024);
        }
        System.out.printf("load average at the end %s%n", MachineFacts.loadAverage());
    }

    private double bytesPerStream(String form, int streams) throws Exception {
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(http);
        h2c.setMaxConcurrentStreams(STREAMS_PER_CONNECTION);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http), h2c);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(TimeUnit.MINUTES.toMillis(10));
        server.addConnector(connector);
        server.setHandler(form.equals("core") ? coreHandler() : servletHandler());
        server.start();
        try {
            hold(connector.getLocalPort(), STREAMS_PER_CONNECTION).destroyForcibly().waitFor(); // first requests' one-off costs
            held.clear();
            long none = liveHeapBytes();
            Process h2load = hold(connector.getLocalPort(), streams);
            try {
                Thread.sleep(1_000); // the last streams' first writes done
                return (liveHeapBytes() - none) / (double) streams;
            } finally {
                h2load.destroyForcibly().waitFor();
            }
        } finally {
            held.clear();
            server.stop();
        }
    }

    /** Starts h2load opening {@code streams} streams on {@code port} and returns it once all are held. */
    private Process hold(int port, int streams) throws IOException, InterruptedException {
        Process h2load = new ProcessBuilder("h2load", "-n", Integer.toString(streams),
                "-c", Integer.toString((streams + STREAMS_PER_CONNECTION - 1) / STREAMS_PER_CONNECTION),
                "-m", Integer.toString(STREAMS_PER_CONNECTION), "-D", "600", "http://127.0.0.1:" + port + "/stream")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (held.size() < streams) {
            if (!h2load.isAlive() || System.nanoTime() > deadline) {
                h2load.destroyForcibly().waitFor();
                throw new IllegalStateException("only " + held.size() + " of " + streams + " streams opened"
                        + (h2load.exitValue() == 127 ? ": install h2load (apt-get install nghttp2-client)" : ""));
            }
            Thread.sleep(100);
        }
        return h2load;
    }

    private Handler coreHandler() {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.getHeaders().put("Content-Type", "text/event-stream;charset=utf-8");
                response.getHeaders().put("Cache-Control", "no-store");
                response.write(false, ByteBuffer.wrap(FIRST), Callback.NOOP);
                held.add(callback); // never completed: the stream stays open until h2load goes
                return true;
            }
        };
    }

    private Handler servletHandler() {
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("text/event-stream;charset=utf-8");
                response.setHeader("Cache-Control", "no-store");
                AsyncContext async = request.startAsync();
                async.setTimeout(0);
                response.getOutputStream().write(FIRST);
                response.getOutputStream().flush();
                held.add(async); // never completed: the stream stays open until h2load goes
            }
        }), "/*");
        return context;
    }

    /** The lower of two readings of the used heap, each right after a forced full GC. */
    private static long liveHeapBytes() {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            System.gc();
            lowest = Math.min(lowest, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return lowest;
    }
}
