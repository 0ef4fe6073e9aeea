package com.example.threading.floors;

import java.util.List;
import java.util.concurrent.Executor;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty of the service's version with nothing of Dropwizard, for the floor measurements: two loopback connectors,
 * each reaching its own context only and each with a thread pool of the service's sizes (application: 8 to 200
 * threads, admin: 1 to 16), as Dropwizard's default server routes and serves its application and admin connectors.
 */
public final class BareJetty {

    private final Server server;
    private final ServerConnector admin;
    private final ServerConnector application;

    /** A stopped server whose admin connector reaches {@code adminContext} and application connector {@code applicationContexts}. */
    public BareJetty(ContextHandler adminContext, ContextHandler... applicationContexts) {
        server = new Server(pool("floor-application", 200, 8));
        admin = connector(server, "admin", pool("floor-admin", 16, 1));
        application = connector(server, "application", null); // null: the server's pool
        adminContext.setVirtualHosts(List.of("@admin"));
        ContextHandlerCollection contexts = new ContextHandlerCollection(adminContext);
        for (ContextHandler applicationContext : applicationContexts) {
            applicationContext.setVirtualHosts(List.of("@application"));
            contexts.addHandler(applicationContext);
        }
        server.setHandler(contexts);
    }

    private static QueuedThreadPool pool(String name, int maxThreads, int minThreads) {
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, minThreads);
        threads.setName(name);
        return threads;
    }

    private static ServerConnector connector(Server server, String name, Executor threads) {
        ServerConnector connector = new ServerConnector(server, threads, null, null, -1, -1, new HttpConnectionFactory());
        connector.setName(name);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        return connector;
    }

    /** Starts the server. */
    public void start() throws Exception {
        server.start();
    }

    /** Stops the server. */
    public void stop() throws Exception {
        server.stop();
    }

    /** {@code http://127.0.0.1:<admin port><path>}, once started. */
    public String adminUrl(String path) {
        return "http://127.0.0.1:" + admin.getLocalPort() + path;
    }

    /** {@code http://127.0.0.1:<application port><path>}, once started. */
    public String applicationUrl(String path) {
        return "http://127.0.0.1:" + application.getLocalPort() + path;
    }

    /** The JDK, the CPU model, the number of CPUs and the load average: what a printed figure must name beside it. */
    public static String machine() {
        return String.format("java %s, CPU %s, %d CPUs, load average %s", System.getProperty("java.version"), MachineFacts.cpuModel(),
                Runtime.getRuntime().availableProcessors(), MachineFacts.loadAverage());
    }
}
