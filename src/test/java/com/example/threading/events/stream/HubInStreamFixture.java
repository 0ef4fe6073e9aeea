package com.example.threading.events.stream;

import com.example.threading.events.hub.EventHub;

/**
 * A class of the stream SPI that uses the hub, which uses the SPI: a cycle the events wing's layer rules must catch
 * ({@code EventsLayersTest}). Test code only; nothing uses it.
 */
final class HubInStreamFixture {

    private HubInStreamFixture() {
    }

    static Object hub() {
        return EventHub.class;
    }
}
