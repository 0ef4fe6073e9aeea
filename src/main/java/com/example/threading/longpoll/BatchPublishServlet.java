package com.example.threading.longpoll;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code POST /events/batch}: several events, on one topic or several, in one request
 * ({@code [{"topic":"room-1","data":{...}}, ...]}), published in order and answered once ({@link EventPublishing}).
 * Mounted with {@code asyncSupported=true}.
 */
final class BatchPublishServlet extends HttpServlet {

    private final transient EventPublishing publishing;
    private final transient JsonResponses json;

    /** Hands POSTs to {@code publishing}; anything else is answered 405. */
    BatchPublishServlet(EventPublishing publishing, JsonResponses json) {
        this.publishing = publishing;
        this.json = json;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getMethod().equals("POST")) {
            publishing.publishBatch(request, response);
            return;
        }
        json.refuseMethod(request, response, "POST", LongPollBundle.BATCH_PATH);
    }
}
