package com.example.threading.events.publish;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A publishing endpoint on a servlet: {@code POST /events} ({@link EventPublishing#publish}) or {@code POST /events/batch}
 * ({@link EventPublishing#publishBatch}). The POST is handed over on the Jetty worker, which returns once the body's
 * read is started. Mounted with {@code asyncSupported=true}.
 */
final class PublishServlet extends HttpServlet {

    /** What a POST does. */
    @FunctionalInterface
    interface Endpoint {
        /** Answers, or starts the async answer of, one POST. */
        void post(HttpServletRequest request, HttpServletResponse response) throws IOException;
    }

    private final transient Endpoint endpoint;

    /** Hands each POST to {@code endpoint}. */
    PublishServlet(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        endpoint.post(request, response);
    }
}
