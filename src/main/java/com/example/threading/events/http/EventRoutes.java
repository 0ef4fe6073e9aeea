package com.example.threading.events.http;

import io.dropwizard.jetty.setup.ServletEnvironment;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The events endpoints by path and method, as the transports add them ({@code GET /events} from the long-poll,
 * {@code POST /events} from publishing): one servlet per path, mounted async, hands each request to the servlet of its
 * method and answers any other method {@code 405} with {@code Allow} (JSON, {@code Connection: close}: a body the
 * request may carry is never read). So a transport names only its own paths, and two transports share a path without
 * knowing of each other.
 *
 * <p>Used on the start-up thread only: {@link #add} every endpoint, then {@link #register} once.
 */
public final class EventRoutes {

    private final JsonResponses json;
    private final Map<String, Map<String, HttpServlet>> byPath = new LinkedHashMap<>();

    /** Routes whose {@code 405} answers are written with {@code json}. */
    public EventRoutes(JsonResponses json) {
        this.json = json;
    }

    /** Serves {@code method} (e.g. {@code GET}) on {@code path} with {@code servlet}; a method taken twice is a bug. */
    public void add(String method, String path, HttpServlet servlet) {
        HttpServlet taken = byPath.computeIfAbsent(path, any -> new LinkedHashMap<>()).putIfAbsent(method, servlet);
        if (taken != null) {
            throw new IllegalStateException(method + " " + path + " is served twice");
        }
    }

    /** Mounts one servlet per path, named after it ({@code /events/stream}: {@code events-stream}), async supported. */
    public void register(ServletEnvironment servlets) {
        servlets().forEach((path, servlet) -> {
            var registration = servlets.addServlet(path.substring(1).replace('/', '-'), servlet);
            registration.setAsyncSupported(true);
            registration.addMapping(path);
        });
    }

    /** One servlet per path, by path, for a container other than Dropwizard's; mount each with async supported. */
    public Map<String, HttpServlet> servlets() {
        Map<String, HttpServlet> servlets = new LinkedHashMap<>();
        byPath.forEach((path, methods) -> servlets.put(path, new ByMethod(path, methods, json)));
        return servlets;
    }

    /** One path's servlet: each method's own servlet, and {@code 405} for the rest. */
    private static final class ByMethod extends HttpServlet {

        private final String path;
        private final transient Map<String, HttpServlet> methods;
        private final transient JsonResponses json;
        private final String allow;

        ByMethod(String path, Map<String, HttpServlet> methods, JsonResponses json) {
            this.path = path;
            this.methods = Map.copyOf(methods);
            this.json = json;
            this.allow = String.join(", ", methods.keySet());
        }

        @Override
        public void init(ServletConfig config) throws ServletException {
            super.init(config);
            for (HttpServlet servlet : Set.copyOf(methods.values())) {
                servlet.init(config);
            }
        }

        @Override
        public void destroy() {
            Set.copyOf(methods.values()).forEach(HttpServlet::destroy);
            super.destroy();
        }

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            HttpServlet servlet = methods.get(request.getMethod());
            if (servlet == null) {
                response.setHeader("Allow", allow);
                response.setHeader("Connection", JsonResponses.CLOSE);
                json.writeError(response, 405, request.getMethod() + " is not supported on " + path);
                return;
            }
            servlet.service(request, response);
        }
    }
}
