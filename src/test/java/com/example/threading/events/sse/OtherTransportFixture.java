package com.example.threading.events.sse;

import com.example.threading.events.longpoll.LongPollTransport;

/**
 * A class of one transport that uses another: what the events wing's layer rules must catch ({@code EventsLayersTest}).
 * Test code only; nothing uses it.
 */
final class OtherTransportFixture {

    private OtherTransportFixture() {
    }

    static Object longPoll() {
        return LongPollTransport.class; // not its PATH: a String constant is inlined, and the class file never names the class
    }
}
