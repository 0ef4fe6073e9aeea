package com.example.threading.requestlog;

import com.codahale.metrics.Gauge;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.setup.Environment;

/**
 * Registers gauge {@value #DROPPED}: the request log's lines dropped because an appender's queue was full, when the
 * server's request log is {@link JettyRequestLogFactory}'s.
 * <pre>{@code
 * bootstrap.addBundle(new RequestLogBundle());
 * }</pre>
 */
public final class RequestLogBundle implements ConfiguredBundle<Configuration> {

    /** Gauge of the request log's dropped lines. */
    public static final String DROPPED = "http.request-log.dropped";

    @Override
    public void run(Configuration configuration, Environment environment) {
        if (configuration.getServerFactory() instanceof AbstractServerFactory server
                && server.getRequestLogFactory() instanceof JettyRequestLogFactory log) {
            environment.metrics().register(DROPPED, (Gauge<Long>) log::dropped);
        }
    }
}
