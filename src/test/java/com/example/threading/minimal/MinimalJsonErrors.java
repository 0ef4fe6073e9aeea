package com.example.threading.minimal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.errors.ErrorMessage;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * Jetty's error handler writing {@code {"code":N,"message":"…"}} as JSON instead of an HTML page, for every method
 * and whatever the request accepts: on the Server (what fails before any context: the HTTP parser's 400, 414, 431,
 * 505, a path that does not decode) and on both servlet contexts ({@code sendError}, Dropwizard's 405, an uncaught
 * exception). A server fault's message is only the reason phrase, never the exception's.
 *
 * <p>Thread-safety: Jetty calls {@link #generateResponse} from any of its threads at once; the handler holds no
 * state but a thread-safe, already configured ObjectMapper.
 */
public final class MinimalJsonErrors extends ErrorHandler {
    private static final ObjectMapper JSON = Jackson.newObjectMapper();

    /** One on each servlet context now, one on the Server as it starts (Dropwizard sets an HTML one when it builds it). */
    public static void register(Environment environment) {
        environment.getApplicationContext().setErrorHandler(new MinimalJsonErrors());
        environment.getAdminContext().setErrorHandler(new MinimalJsonErrors());
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    server.setErrorHandler(new MinimalJsonErrors());
                }
            }
        });
    }

    /** Every method gets a body (Jetty's default: GET, POST and HEAD only). */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) throws IOException {
        String text = code >= 500 || message == null ? HttpStatus.getMessage(code) : message;
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(JSON.writeValueAsBytes(new ErrorMessage(code, text))), callback);
    }
}
