package com.example.threading.errors;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Gives a body to an error status set without one: when a servlet answers 4xx or 5xx with {@code setStatus} and
 * writes nothing (Dropwizard's admin {@code TaskServlet} does, for {@code GET /tasks/gc} (405) and unknown tasks
 * (404)), the filter turns it into {@code sendError}, which the context's {@link JsonErrorHandler} answers with
 * the JSON error body. An answer with a body of its own (e.g. {@code /healthcheck}'s 500 listing the checks) is left
 * alone, as is an async request (its answer is written later, by someone else).
 *
 * <p>A wrapper's flag is a plain field: the wrapper belongs to one synchronous request and is used only by the thread
 * that runs its servlet.
 */
public final class EmptyErrorsAsJson implements Filter {

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        BodyWatch watched = new BodyWatch((HttpServletResponse) response);
        chain.doFilter(request, watched);
        int status = watched.getStatus();
        if (status >= 400 && !watched.bodyStarted && !request.isAsyncStarted() && !response.isCommitted()) {
            ((HttpServletResponse) response).sendError(status);
        }
    }

    private static final class BodyWatch extends HttpServletResponseWrapper {
        private boolean bodyStarted;

        BodyWatch(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            bodyStarted = true;
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            bodyStarted = true;
            return super.getWriter();
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            bodyStarted = true; // the error handler writes the body
            super.sendError(sc, msg);
        }

        @Override
        public void sendError(int sc) throws IOException {
            bodyStarted = true;
            super.sendError(sc);
        }
    }
}
