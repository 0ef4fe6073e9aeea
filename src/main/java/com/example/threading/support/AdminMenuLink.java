package com.example.threading.support;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.CharArrayWriter;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Adds a link to Dropwizard's admin menu (the admin port's root), which has no way to be extended: the menu page is
 * captured and the link inserted before its list ends. Every other admin path passes untouched; a menu without the
 * expected list is sent as it was. Each filter adds one link, so several of them add several.
 */
public final class AdminMenuLink extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final String LIST_END = "</ul>";

    private final String path;
    private final String label;

    /** A link to {@code path} (e.g. {@code /live}), relative to the admin context, reading {@code label} (HTML). */
    public AdminMenuLink(String path, String label) {
        this.path = path;
        this.label = label;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String within = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (!"GET".equals(request.getMethod()) || !(within.isEmpty() || "/".equals(within))) {
            chain.doFilter(request, response);
            return;
        }
        CharArrayWriter menu = new CharArrayWriter();
        PrintWriter capture = new PrintWriter(menu);
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public PrintWriter getWriter() {
                return capture;
            }
        });
        capture.flush();
        String page = menu.toString();
        int end = page.lastIndexOf(LIST_END);
        if (end >= 0) {
            page = page.substring(0, end) + "  <li><a href=\"" + request.getContextPath() + path
                    + "\">" + label + "</a></li>\n  " + page.substring(end);
        }
        response.getWriter().write(page);
    }
}
