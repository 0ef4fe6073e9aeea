package com.example.threading.jetty;

import io.dropwizard.core.setup.Environment;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches off Jetty's per-connection cache of repeated request header fields (the HTTP/1.1 parser's field cache)
 * unless {@code jetty.headerFieldCache} is true. The cache is a trie of 48 chars per byte of the connector's
 * {@code headerCacheSize} (Dropwizard's default 512 B, its minimum 128 B), built on a connection's second request and
 * kept for the connection's life, idle or not: docs/jetty.md gives its size per connection, docs/longpoll.md
 * ("Scale") measures what it costs with many parked polls. Without it each request's header fields are parsed into
 * new objects. HTTP/2 does not use it (HPACK has its own table per connection).
 *
 * <p>The connectors' HTTP configuration is changed in the Server's "starting" event, on the thread that starts the
 * server, before any connector has started: no connection exists yet to read it.
 */
public final class HeaderFieldCache implements LifeCycle.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(HeaderFieldCache.class);

    private HeaderFieldCache() {
    }

    /** Switches the cache off on every connector when the server starts, unless {@code enabled}. */
    public static void register(Environment environment, boolean enabled) {
        if (!enabled) {
            environment.lifecycle().addEventListener(new HeaderFieldCache());
        }
    }

    @Override
    public void lifeCycleStarting(LifeCycle event) {
        if (!(event instanceof Server server)) {
            return;
        }
        for (Connector connector : server.getConnectors()) {
            // Dropwizard wraps each factory in metrics' InstrumentedConnectionFactory, which holds it as a bean.
            if (connector instanceof ContainerLifeCycle container) {
                for (HttpConfiguration.ConnectionFactory factory : container.getContainedBeans(HttpConfiguration.ConnectionFactory.class)) {
                    factory.getHttpConfiguration().setHeaderCacheSize(0);
                }
            }
        }
        LOG.info("HTTP/1.1 header field cache off on every connector (jetty.headerFieldCache: false)");
    }
}
