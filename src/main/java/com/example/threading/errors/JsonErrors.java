package com.example.threading.errors;

import com.codahale.metrics.Meter;
import io.dropwizard.core.setup.Environment;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * Makes every error of the service, on every path and port, the one JSON body {@code {"code":N,"message":"…"}}:
 * a JSON error handler on the Jetty server (errors before any context, on both connectors) and on the
 * application and admin servlet contexts, and Dropwizard's validation errors mapped to the same body.
 * Metric {@code http.error-bodies}: the error bodies Jetty's error handlers wrote (errors the application did
 * not answer itself).
 *
 * <p>Thread-safety: {@link #register} is called once, on the start-up thread, before the server is built; the
 * server's handler is installed from the server's own starting event, before it takes requests.
 */
public final class JsonErrors {

    /** Meter of the error bodies written by the Jetty-level handlers. */
    public static final String ERROR_BODIES = "http.error-bodies";

    private JsonErrors() {
    }

    /** Installs the JSON error handlers and the validation mapper in {@code environment}. */
    public static void register(Environment environment) {
        Meter written = environment.metrics().meter(ERROR_BODIES);
        environment.getApplicationContext().setErrorHandler(new JsonErrorHandler(written));
        environment.getAdminContext().setErrorHandler(new JsonErrorHandler(written));
        // Dropwizard builds the Server after Application.run and sets its own (HTML) error handler there: replace
        // it when the server starts, before any connector accepts.
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    server.setErrorHandler(new JsonErrorHandler(written));
                }
            }
        });
        environment.jersey().register(new ViolationsAsErrorMessage());
    }
}
