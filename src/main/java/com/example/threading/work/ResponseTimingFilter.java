package com.example.threading.work;

import com.codahale.metrics.Timer;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Map;

/**
 * Times each {@code /work/{pattern}} request until its response is complete. A {@code @Timed} resource
 * method would stop when the method returns, which for a suspended request is long before the answer;
 * here an {@link AsyncListener} stops the clock when the container completes the async request.
 */
final class ResponseTimingFilter implements Filter {

    private static final String PREFIX = WorkBundle.PATH + "/";

    private final Map<String, Timer> timersByPattern;

    ResponseTimingFilter(Map<String, Timer> timersByPattern) {
        this.timersByPattern = Map.copyOf(timersByPattern);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String uri = ((HttpServletRequest) request).getRequestURI();
        // Only known patterns: a timer per arbitrary path would let callers grow the registry.
        Timer timer = uri.startsWith(PREFIX) ? timersByPattern.get(uri.substring(PREFIX.length())) : null;
        if (timer == null) {
            chain.doFilter(request, response);
            return;
        }
        Timer.Context clock = timer.time();
        try {
            chain.doFilter(request, response);
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new StopOnComplete(clock));
            } else {
                clock.stop();
            }
        }
    }

    private static final class StopOnComplete implements AsyncListener {
        private final Timer.Context clock;

        StopOnComplete(Timer.Context clock) {
            this.clock = clock;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            clock.stop();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            // onComplete follows once the request is answered.
        }

        @Override
        public void onError(AsyncEvent event) {
            // onComplete follows once the request is answered.
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }
    }
}
