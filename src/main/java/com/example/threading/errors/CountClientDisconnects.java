package com.example.threading.errors;

import com.codahale.metrics.Meter;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Counts the requests that ended because the client went away ({@link ClientGone}): a Jetty handler in front of
 * everything, on every connector, that watches each request's stream. A request counts once, whether the client's
 * going shows as a failed write (HTTP/1.1: the connection was reset while the answer was on its way; the stream
 * itself then completes without a failure) or as a failed stream (HTTP/2: the client reset the stream), whoever
 * wrote the answer: Jersey, a servlet, an error handler.
 *
 * <p>Thread-safety: {@code handle} runs on Jetty's threads, any number at once, and only wraps the request's stream.
 * One request's wrapper is called by the threads that write its answer and complete its stream, one after the other or,
 * when a failure races a write, at once: it counts through a compare-and-set on its own flag, so a request counts once
 * whichever path sees the client go. The meter is thread-safe. {@code ClientDisconnectsTest} checks it on the real
 * server: clients that reset or drop mid-answer, over HTTP/1.1 and HTTP/2, each counted once.
 */
final class CountClientDisconnects extends Handler.Wrapper {

    private final Meter disconnects;

    CountClientDisconnects(Meter disconnects) {
        this.disconnects = disconnects;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        request.addHttpStreamWrapper(Watched::new);
        return super.handle(request, response, callback);
    }

    private final class Watched extends HttpStream.Wrapper {
        private final AtomicBoolean counted = new AtomicBoolean();

        Watched(HttpStream stream) {
            super(stream);
        }

        @Override
        public void send(MetaData.Request request, MetaData.Response response, boolean last, ByteBuffer content,
                         Callback callback) {
            super.send(request, response, last, content, new Callback.Nested(callback) {
                @Override
                public void failed(Throwable failure) {
                    count(failure);
                    super.failed(failure);
                }
            });
        }

        @Override
        public void failed(Throwable failure) {
            count(failure);
            super.failed(failure);
        }

        private void count(Throwable failure) {
            if (ClientGone.cause(failure) != null && counted.compareAndSet(false, true)) {
                disconnects.mark();
            }
        }
    }
}
