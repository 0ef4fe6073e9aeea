package com.example.threading.errors;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.metrics.jetty12.InstrumentedConnectionFactory;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.VirtualThreads;

/**
 * Jetty's HTTP/1.1 connection factory, whose connections run {@code onFillable} one at a time.
 *
 * <p>Why: in Jetty 12.1.14 a request head the parser refuses (a 400 for a control character in a header, a 431 for
 * a head too large) is answered by a task of its own; when that answer completes, the connection resumes
 * {@code onFillable} on another thread, often while the thread that parsed the head is still in its
 * {@code onFillable} (5-8 % of such requests on two cores). Both then release the connection's request buffer, and
 * about once in 100,000 such requests both take it before either clears the field: the pool's buffer is released
 * twice ({@code IllegalStateException: already released}, logged by the thread pool as "Job failed"), the symptom of
 * jetty/jetty.project#12939, where a buffer back in the pool could be handed to another connection while it is still
 * read. {@code BadMessageRace} in the test sources reproduces both on a bare Jetty. Here a second {@code onFillable}
 * that arrives while one runs is run by that one when it ends ({@link SerialRuns}), as Jetty's own design intends; no
 * thread waits for it.
 *
 * <p>Thread-safety: a connection's {@code onFillable} may be called from any thread; {@link SerialRuns} keeps the runs
 * apart ({@code SerialRunsTest}, {@code OneFillAtATimeTest}).
 */
final class OneFillAtATime extends HttpConnectionFactory {

    /** A factory for {@code original}'s configuration, listeners and settings. */
    OneFillAtATime(HttpConnectionFactory original) {
        super(original.getHttpConfiguration());
        setInputBufferSize(original.getInputBufferSize());
        setTransferEncodingChunkMaxLength(original.getTransferEncodingChunkMaxLength());
        original.getEventListeners().forEach(this::addEventListener);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        SerialFills connection = new SerialFills(getHttpConfiguration(), connector, endPoint);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure(connection, connector, endPoint);
    }

    /**
     * Puts this factory in place of the HTTP/1.1 factory of every connector of {@code server} (not started yet): in
     * Dropwizard's {@link InstrumentedConnectionFactory} again, with the timer Dropwizard registered for it in
     * {@code metrics}.
     */
    static void install(Server server, MetricRegistry metrics) {
        for (Connector connector : server.getConnectors()) {
            if (!(connector instanceof ServerConnector serverConnector)) {
                continue;
            }
            for (ConnectionFactory factory : List.copyOf(serverConnector.getConnectionFactories())) {
                if (factory instanceof HttpConnectionFactory http && !(http instanceof OneFillAtATime)) {
                    serverConnector.addConnectionFactory(new OneFillAtATime(http));
                } else if (factory instanceof InstrumentedConnectionFactory instrumented) {
                    HttpConnectionFactory http = instrumented.getBean(HttpConnectionFactory.class);
                    if (http != null && !(http instanceof OneFillAtATime)) {
                        // Dropwizard's name for the timer of the connector's connections (HttpConnectorFactory.httpConnections).
                        String timer = MetricRegistry.name(HttpConnectionFactory.class, serverConnector.getHost(),
                                Integer.toString(serverConnector.getPort()), "connections");
                        serverConnector.addConnectionFactory(new InstrumentedConnectionFactory(new OneFillAtATime(http), metrics.timer(timer)));
                    }
                }
            }
        }
    }

    /**
     * Jetty's HTTP/1.1 connection, its {@code onFillable} runs kept apart, and resumed on a virtual thread when
     * requests run on virtual threads.
     *
     * <p>Why the resume: when an answer completes after its request's thread has left (an async answer), Jetty
     * 12.1.14 resumes the connection ({@link #run}) on the connector's platform pool, even with a virtual-threads
     * executor configured; a request already read into the connection's buffer (pipelined, or sent the moment the
     * answer arrived) then runs on that platform thread. Here that run moves to the virtual-threads executor of the
     * connector's pool when it has one ({@code VirtualRequestContextTest}); without one nothing changes.
     */
    private static final class SerialFills extends HttpConnection {
        private final SerialRuns fills = new SerialRuns();
        private final Executor virtualThreads;

        SerialFills(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
            super(configuration, connector, endPoint);
            this.virtualThreads = VirtualThreads.getVirtualThreadsExecutor(connector.getExecutor());
        }

        @Override
        public void onFillable() {
            fills.run(super::onFillable);
        }

        @Override
        public void run() {
            if (virtualThreads == null || VirtualThreads.isVirtualThread()) {
                super.run();
                return;
            }
            try {
                virtualThreads.execute(super::run);
            } catch (RejectedExecutionException stopping) {
                super.run();
            }
        }
    }

    /** Whether {@code connector}'s HTTP/1.1 connections are made by this factory. */
    static boolean installedOn(Connector connector) {
        for (ConnectionFactory factory : connector.getConnectionFactories()) {
            if (factory instanceof OneFillAtATime
                    || factory instanceof InstrumentedConnectionFactory instrumented && instrumented.getBean(OneFillAtATime.class) != null) {
                return true;
            }
        }
        return false;
    }
}
