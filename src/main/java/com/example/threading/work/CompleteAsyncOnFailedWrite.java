package com.example.threading.work;

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
 * Completes an async request whose answer could not be written, so it does not stay in flight forever.
 *
 * <p>When a resumed {@code AsyncResponse} is written to a client that has reset its connection, Jersey
 * (3.1.11 on Jetty 12.1.14 ee10) logs "Error while closing the output stream in order to commit response" and
 * never completes the servlet {@code AsyncContext}: the request stays active until the server stops, and a
 * graceful stop then waits out the whole grace period. This filter hands Jersey an output stream whose failed
 * write, flush or close completes the async context before the exception goes on. The client package holds the same
 * filter: each bundle maps its own copy, so that each package lifts out alone.
 *
 * <p>Thread-safety: the stream is used by one thread at a time (the one writing the response, as the servlet
 * API requires); {@code AsyncContext.complete()} may be called from any thread, and a second call after the
 * container has completed the request is ignored here.
 */
final class CompleteAsyncOnFailedWrite implements Filter {

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
            if (request.isAsyncStarted()) {
                try {
                    AsyncContext async = request.getAsyncContext();
                    async.complete();
                } catch (IllegalStateException alreadyCompleted) {
                    failure.addSuppressed(alreadyCompleted);
                }
            }
            return failure;
        }
    }
}
