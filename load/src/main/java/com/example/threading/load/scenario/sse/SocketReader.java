package com.example.threading.load.scenario.sse;

import org.eclipse.jetty.websocket.api.Session;

/**
 * One WebSocket reader of {@link SocketReaders}: hands every text message to the readers' listener with the time it was
 * read. Public, as Jetty binds a listener's methods through a public lookup; made only by {@link SocketReaders}.
 *
 * <p>Thread-safety: Jetty calls it on its threads, one message after the other (auto-demanding).
 */
public final class SocketReader implements Session.Listener.AutoDemanding {

    private final int index;
    private final SocketReaders.Listener listener;

    SocketReader(int index, SocketReaders.Listener listener) {
        this.index = index;
        this.listener = listener;
    }

    @Override
    public void onWebSocketText(String text) {
        listener.message(index, text, System.nanoTime());
    }
}
