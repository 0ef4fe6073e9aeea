package com.example.threading.errors;

import com.codahale.metrics.Meter;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * Makes every error of the service, on every path and port, the one JSON body {@code {"code":N,"message":"…"}}:
 * a JSON error handler on the Jetty server (errors before any context, on both connectors) and on the
 * application and admin servlet contexts, a body for the admin tasks' bare error statuses, and Dropwizard's
 * validation errors mapped to the same body; and keeps what clients cause out of the error log
 * ({@link QuietClientFaults}), counts the clients that go away ({@link CountClientDisconnects}), and keeps a refused
 * request head from releasing its connection's buffer twice ({@link OneFillAtATime}). Metrics
 * {@code http.error-bodies}: the error bodies Jetty's error handlers wrote (errors the application did not answer
 * itself);
 * {@code http.client-disconnects}: requests that ended because the client went away (reset or closed its connection
 * or HTTP/2 stream) before the answer was complete.
 * <pre>{@code
 * bootstrap.addBundle(new JsonErrorsBundle());
 * }</pre>
 */
public final class JsonErrorsBundle implements ConfiguredBundle<Object> {

    /** Meter of the error bodies written by the Jetty-level handlers. */
    public static final String ERROR_BODIES = "http.error-bodies";
    /** Meter of the requests that ended because the client went away before its answer was complete. */
    public static final String CLIENT_DISCONNECTS = "http.client-disconnects";

    /** Installs the JSON error handlers, the validation mapper, the log filter and the disconnect counter in {@code environment}. */
    @Override
    public void run(Object configuration, Environment environment) {
        Meter written = environment.metrics().meter(ERROR_BODIES);
        Meter disconnects = environment.metrics().meter(CLIENT_DISCONNECTS);
        environment.getApplicationContext().setErrorHandler(new JsonErrorHandler(written));
        environment.getAdminContext().setErrorHandler(new JsonErrorHandler(written));
        // Dropwizard's admin TaskServlet answers 404/405 with a bare status: give those the body too.
        environment.admin().addFilter("empty-errors-as-json", new EmptyErrorsAsJson())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        // Dropwizard builds the Server after Application.run and sets its own (HTML) error handler there: replace
        // it, and put the disconnect counter in front of every handler, when the server starts, before any
        // connector accepts.
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    server.setErrorHandler(new JsonErrorHandler(written));
                    server.insertHandler(new CountClientDisconnects(disconnects));
                    // Jetty 12.1.14 may run two onFillable of one connection at once after a refused request head.
                    OneFillAtATime.install(server, environment.metrics());
                }
            }
        });
        environment.jersey().register(new ViolationsAsErrorMessage());
        // Managed: installed in logback when the server starts (after Dropwizard configured logging), removed on stop.
        environment.lifecycle().manage(new QuietClientFaults());
    }
}
