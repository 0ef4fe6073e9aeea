package com.example.threading.errors;

import com.codahale.metrics.Meter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error handler, writing the JSON error body instead of an HTML page, for every method and whatever the
 * request's {@code Accept} says. One instance serves the {@code Server} (what fails before any servlet context sees
 * the request, on every connector: the HTTP parser's 400 for a bad request line or percent-encoding, 414, 431,
 * 505) and the application and admin servlet contexts ({@code sendError}, e.g. Dropwizard's 405 for a method it
 * does not allow, the admin port's 404, and the 500 of an uncaught exception, whose message is only the reason
 * phrase). A Jetty <em>core</em> handler also serves ee10 servlet contexts: they hand it their request and
 * response through the core API, as they do with the handler Dropwizard installs by default.
 */
public final class JsonErrorHandler extends ErrorHandler {

    private final Meter written;

    /** Counts every error body it writes in {@code written}. */
    public JsonErrorHandler(Meter written) {
        this.written = written;
        setShowStacks(false);
        setShowCauses(false);
        setShowOrigin(false);
    }

    /** Every method gets a body (Jetty's default is GET, POST, HEAD and its own "BAD" only). */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) throws IOException {
        written.mark();
        generateAcceptableResponse(request, response, callback, ErrorBody.MEDIA_TYPE, List.of(StandardCharsets.UTF_8),
                code, ErrorBody.message(code, message, cause), cause);
    }

    @Override
    protected void writeErrorJson(Request request, PrintWriter writer, int code, String message, Throwable cause) {
        writer.write(ErrorBody.json(code, message));
    }
}
