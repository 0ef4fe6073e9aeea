package com.example.threading.load.scenario.cost;

import java.util.function.BinaryOperator;
import org.eclipse.jetty.websocket.api.Session;

/**
 * A batch row's WebSocket listener: hands each text message to its batch with the round it last counted. Public, as
 * Jetty's WebSocket client finds its methods through a public lookup; made only by {@link Batch}.
 *
 * <p>Thread-safety: Jetty calls one socket's listener one message at a time, so {@code counted} is touched by one thread
 * at a time.
 */
public final class BatchSocket implements Session.Listener.AutoDemanding {

    private final BinaryOperator<String> onText;
    private String counted = "";

    BatchSocket(BinaryOperator<String> onText) {
        this.onText = onText;
    }

    @Override
    public void onWebSocketText(String text) {
        counted = onText.apply(counted, text);
    }
}
