package com.example.threading.client;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Where {@code /fanout} sends its calls: a configured URL, or this service's own {@code /work/cached} on the
 * application connector's real bound port, which is only known once Jetty has started (port 0 in tests).
 *
 * <p>Thread-safety: a configured URL is set at construction. Otherwise the URI is written once, through the volatile
 * field, by the server-started callback (on the thread that starts the server), and read by request threads with no
 * lock: a request that comes before that write sees no URI and is answered 503 by {@link FanoutResource}; one that
 * comes after sees the whole URI (the volatile write happens-before the read that sees it).
 */
final class Downstream {

    private volatile URI uri;

    private Downstream(URI uri) {
        this.uri = uri;
    }

    /** The configured URL, or this service's own /work/cached once the server has started. */
    static Downstream from(FanoutClientConfiguration configuration, Environment environment) {
        if (configuration.getDownstreamUrl() != null) {
            return new Downstream(configuration.getDownstreamUrl());
        }
        Downstream self = new Downstream(null);
        environment.lifecycle().addServerLifecycleListener(new ServerLifecycleListener() {
            @Override
            public void serverStarted(Server server) {
                self.uri = selfUri(server, environment);
            }
        });
        return self;
    }

    /** The URL to call, empty until the server has started when it is this service itself. */
    Optional<URI> uri() {
        return Optional.ofNullable(uri);
    }

    private static URI selfUri(Server server, Environment environment) {
        // The first connector is the application connector (Dropwizard adds the admin connectors after it).
        Connector first = server.getConnectors()[0];
        if (!(first instanceof ServerConnector connector)) {
            throw new IllegalStateException("cannot discover the application port from " + first
                    + "; set client.downstreamUrl");
        }
        String scheme = connector.getProtocols().stream().anyMatch(p -> p.toLowerCase(Locale.ROOT).startsWith("ssl")) ? "https" : "http";
        String host = connector.getHost();
        if (host == null || host.isEmpty() || "0.0.0.0".equals(host) || "::".equals(host) || "[::]".equals(host)) {
            host = "127.0.0.1"; // bound to every interface: loopback reaches it without leaving the machine
        } else if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return URI.create(scheme + "://" + host + ":" + connector.getLocalPort() + rootPath(environment) + FanoutBundle.SELF_DOWNSTREAM_PATH);
    }

    /** The context path and Jersey root ("/" and "/*" by default; "/application" under the simple server). */
    private static String rootPath(Environment environment) {
        String context = environment.getApplicationContext().getContextPath();
        String jersey = environment.jersey().getUrlPattern();
        return strip(context == null ? "" : context) + strip(jersey == null ? "" : jersey.replace("/*", ""));
    }

    private static String strip(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
