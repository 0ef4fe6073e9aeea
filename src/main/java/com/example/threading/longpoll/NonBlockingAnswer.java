package com.example.threading.longpoll;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes one complete answer to an async request without blocking the calling thread: the body goes out
 * through a {@link WriteListener}, so Jetty calls back when the socket can take it. A client that reads
 * slowly (or not at all) only delays its own answer; the thread that answers a batch moves on at once.
 *
 * <p>Thread-safety: {@link #send} may be called from any thread, once per request. Jetty serializes the
 * listener's callbacks for one request; {@code finished} makes the completion callback run exactly once.
 */
final class NonBlockingAnswer implements WriteListener {

    /** Told once per answer whether its bytes were written. */
    interface Completion {
        /** The whole answer was handed to the network ({@code written}) or the write failed. */
        void finished(boolean written);
    }

    private final AsyncContext context;
    private final ServletOutputStream out;
    private final byte[] body;
    private final Completion completion;
    private final AtomicBoolean finished = new AtomicBoolean();
    private boolean bodyWritten;

    private NonBlockingAnswer(AsyncContext context, ServletOutputStream out, byte[] body, Completion completion) {
        this.context = context;
        this.out = out;
        this.body = body;
        this.completion = completion;
    }

    /** Sets status and headers, then writes {@code body} (may be empty) and completes the async context. */
    static void send(AsyncContext context, int status, Map<String, String> headers, byte[] body, Completion completion) {
        try {
            HttpServletResponse response = (HttpServletResponse) context.getResponse();
            response.setStatus(status);
            headers.forEach(response::setHeader);
            if (body.length > 0) {
                response.setContentType(JsonResponses.JSON);
            }
            response.setContentLength(body.length);
            if (body.length == 0) {
                context.complete();
                completion.finished(true);
                return;
            }
            ServletOutputStream out = response.getOutputStream();
            out.setWriteListener(new NonBlockingAnswer(context, out, body, completion));
        } catch (RuntimeException | IOException e) {
            // The request was failed or completed concurrently (e.g. the client went away): nothing left to write.
            completion.finished(false);
        }
    }

    @Override
    public void onWritePossible() throws IOException {
        if (!bodyWritten) {
            bodyWritten = true;
            out.write(body);
        }
        if (out.isReady()) {
            // isReady() after the write: the last byte has been handed to the network.
            finish(true);
            context.complete();
        }
    }

    @Override
    public void onError(Throwable failure) {
        finish(false);
        try {
            context.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // Jetty may have completed the failed request itself.
        }
    }

    private void finish(boolean written) {
        if (finished.compareAndSet(false, true)) {
            completion.finished(written);
        }
    }
}
