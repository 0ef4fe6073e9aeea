package com.example.threading.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /live/layout}: the charts the page draws, once, as {@code {"charts":[{title, unit, about,
 * series:[{label, metric, kind, page}]}]}}; {@code /live/data}'s values come in the order of these lines.
 */
final class LiveLayoutServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final byte[] layout;

    LiveLayoutServlet(List<LiveChart> charts, ObjectMapper json) {
        try {
            this.layout = json.writeValueAsBytes(Map.of("charts", charts));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the live page's layout cannot be written as JSON", e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-cache");
        response.setContentLength(layout.length);
        response.getOutputStream().write(layout);
    }
}
