package com.example.threading.live;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The page and everything it loads, from the jar, so it works offline and behind a firewall: {@code GET /live} (the
 * HTML), {@code /live/live.js}, {@code /live/live.css}, {@code /live/icon.svg}, the chart library uPlot from its webjar
 * ({@code /live/uPlot.iife.min.js}, {@code /live/uPlot.min.css}) and the docs pages the charts link
 * ({@code /live/docs/<page>.md}, as plain text). Only these paths; anything else under {@code /live/} is {@code 404}.
 * The HTML carries a Content-Security-Policy that lets the page load and fetch from this origin only.
 */
final class LivePageServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** uPlot inside its webjar; the version is the pom's {@code uplot.version}. */
    private static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/dist/";
    /** This package's resources: the page, its script and style, and the docs pages the build copies in. */
    private static final String OWN = "/com/example/threading/live/";
    /** Same origin only: no script, style, image or fetch from anywhere else, no inline script, no framing. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final Map<String, Served> files;

    /** Serves the page, its assets and the docs pages named {@code docs} (e.g. {@code "work.md"}). */
    LivePageServlet(Set<String> docs) {
        Map<String, Served> map = new HashMap<>();
        map.put("", new Served(read(OWN + "live.html"), "text/html;charset=utf-8"));
        map.put("/live.js", new Served(read(OWN + "live.js"), "text/javascript;charset=utf-8"));
        map.put("/live.css", new Served(read(OWN + "live.css"), "text/css;charset=utf-8"));
        map.put("/icon.svg", new Served(read(OWN + "icon.svg"), "image/svg+xml"));
        map.put("/uPlot.iife.min.js", new Served(read(UPLOT + "uPlot.iife.min.js"), "text/javascript;charset=utf-8"));
        map.put("/uPlot.min.css", new Served(read(UPLOT + "uPlot.min.css"), "text/css;charset=utf-8"));
        for (String page : docs) {
            map.put("/docs/" + page, new Served(read(OWN + "docs/" + page), "text/plain;charset=utf-8"));
        }
        this.files = Map.copyOf(map);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        Served file = files.get(path);
        if (file == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        response.setContentType(file.contentType());
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Cache-Control", "no-cache");
        if (path.isEmpty()) {
            response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        }
        response.setContentLength(file.body().length);
        response.getOutputStream().write(file.body());
    }

    private static byte[] read(String resource) {
        try (InputStream in = LivePageServlet.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the live page's file " + resource + " is not in the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Served(byte[] body, String contentType) {
    }
}
