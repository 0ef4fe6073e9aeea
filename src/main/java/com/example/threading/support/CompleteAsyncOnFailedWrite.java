package com.example.threading.support;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * A servlet filter that completes an async request whose answer could not be written, so that the request does not
 * stay in flight until the server stops. Map it on the paths of every Jersey resource that resumes an
 * {@code AsyncResponse}.
 *
 * <p>Why: when a resumed answer is written to a client that has reset its connection, the write fails after the
 * response is committed. Jersey 3.1.11 (on Jetty 12.1 ee10) logs "Error while closing the output stream in order to
 * commit response" and hands the failure to its servlet {@code ResponseWriter.failure}, which completes the
 * {@code AsyncContext} only for a response not yet committed; nothing else completes it, and a graceful stop then
 * waits out its whole grace period. This filter gives Jersey an output stream whose failed write, flush or close
 * completes the async context before the exception goes on. Upstream:
 * <a href="https://github.com/eclipse-ee4j/jersey/issues/4021">eclipse-ee4j/jersey#4021</a> (that log line when
 * the client leaves before an async answer; open) and
 * <a href="https://github.com/eclipse-ee4j/jersey/issues/5783">eclipse-ee4j/jersey#5783</a> (a failed close in
 * {@code writeResponse}; its fix sends the failure to {@code failure}, which skips a committed response).
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The filter: one instance serves every request, on any thread, and holds no state.</li>
 *   <li>The wrapper and the stream it makes belong to one request. Its stream field is a plain field, used by one
 *       thread at a time: the thread that writes the answer, which for a resumed response is the thread that resumed
 *       it; Jersey's resume orders it after the thread that suspended the request, so that thread sees what the earlier
 *       one set.</li>
 *   <li>Completing the async context is safe from any thread. If the container has completed it first, the
 *       {@code IllegalStateException} is added to the write's exception as suppressed, and the write's exception is
 *       what the caller gets.</li>
 * </ul>
 * {@code CompleteAsyncOnFailedWriteTest} checks it on the service: answers resumed on the work pools' threads, whose
 * write fails as the client resets, are completed all the same.
 */
public final class CompleteAsyncOnFailedWrite implements Filter {

    /** Passes the request on with a response whose output stream completes the async context when a write fails. */
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(request, new Response((HttpServletRequest) request, (HttpServletResponse) response));
    }

    private static final class Response extends HttpServletResponseWrapper {
        private final HttpServletRequest request;
        private ServletOutputStream stream;

        Response(HttpServletRequest request, HttpServletResponse response) {
            super(response);
            this.request = request;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (stream == null) {
                stream = new CompletingStream(super.getOutputStream(), request);
            }
            return stream;
        }
    }

    private static final class CompletingStream extends ServletOutputStream {
        private final ServletOutputStream delegate;
        private final HttpServletRequest request;

        CompletingStream(ServletOutputStream delegate, HttpServletRequest request) {
            this.delegate = delegate;
            this.request = request;
        }

        @Override
        public void write(int b) throws IOException {
            try {
                delegate.write(b);
            } catch (IOException e) {
                throw completeAsync(e);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            try {
                delegate.write(bytes, offset, length);
            } catch (IOException e) {
                throw completeAsync(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                delegate.flush();
            } catch (IOException e) {
                throw completeAsync(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                delegate.close();
            } catch (IOException e) {
                throw completeAsync(e);
            }
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            delegate.setWriteListener(listener);
        }

        private IOException completeAsync(IOException failure) {
            try {
                if (request.isAsyncStarted()) {
                    AsyncContext async = request.getAsyncContext();
                    async.complete();
                }
            } catch (IllegalStateException alreadyCompleted) {
                failure.addSuppressed(alreadyCompleted);
            }
            return failure;
        }
    }
}
