package com.example.threading.events.hub;

import jakarta.servlet.http.HttpServletResponse;

/**
 * A class in the hub that uses the servlet API: what the events wing's layer rules must catch ({@code EventsLayersTest}).
 * Test code only; nothing uses it.
 */
final class ServletInHubFixture {

    private ServletInHubFixture() {
    }

    static Object servlet() {
        return HttpServletResponse.class;
    }
}
