package com.example.threading.context;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/**
 * Makes the request's {@link Context} (made by {@link RequestContextHandler}) current wherever the servlet side picks the
 * request up again on another thread: an async dispatch, or a request admission control held in its queue and resumed
 * on a thread of its own. On the request's first pass it is current already and this does nothing.
 */
final class RequestContextFilter implements Filter {

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (!(request.getAttribute(RequestContextHandler.ATTRIBUTE) instanceof Context context) || context == Context.current()) {
            chain.doFilter(request, response);
            return;
        }
        try (Scope current = context.makeCurrent()) {
            chain.doFilter(request, response);
        }
    }
}
