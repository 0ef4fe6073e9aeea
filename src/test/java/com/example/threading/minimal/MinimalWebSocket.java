package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.ee10.websocket.server.config.JettyWebSocketServletContainerInitializer;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;

/**
 * GET upgrades to a WebSocket (Jetty's own API). {@link #publish} hands every socket one text message with
 * {@code sendText(text, callback)}: it returns at once, Jetty writes when the network takes it, and a socket with more
 * than {@code maxUnsent} characters not yet written is dropped: a slow reader delays no one and holds a bounded buffer.
 * A client's message is published to every socket; frames are read on demand (the next once the last is handled).
 * 503 beyond {@code maxSockets}; the stop closes every socket with 1001.
 * Thread-safety: the set of sockets is concurrent; each socket's unsent count is atomic. */
public final class MinimalWebSocket implements LifeCycle.Listener {
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Semaphore places;
    private final long maxUnsent;

    public MinimalWebSocket(int maxSockets, long maxUnsent) { places = new Semaphore(maxSockets); this.maxUnsent = maxUnsent; }

    public void register(Environment environment, String path) {
        JettyWebSocketServletContainerInitializer.configure(environment.getApplicationContext(),
                (context, container) -> container.addMapping(path, (request, response) -> {
                    if (places.tryAcquire()) return new Socket();
                    response.sendError(503, "too many sockets"); // refused before the upgrade
                    return null;
                }));
        environment.lifecycle().addEventListener(this);
    }
    public void publish(String json) { sockets.forEach(socket -> socket.send(json)); }
    @Override public void lifeCycleStopping(LifeCycle server) {
        sockets.forEach(socket -> socket.session.close(StatusCode.SHUTDOWN, "server stopping", Callback.NOOP));
    }

    /** Public: Jetty binds a listener's methods through a public lookup. */
    public final class Socket implements Session.Listener {
        private final AtomicLong unsent = new AtomicLong();
        private volatile Session session;
        @Override public void onWebSocketOpen(Session opened) { session = opened; sockets.add(this); opened.demand(); }
        @Override public void onWebSocketText(String text) { publish(text); session.demand(); } // the next frame, only now
        @Override public void onWebSocketClose(int code, String reason) { if (sockets.remove(this)) places.release(); }
        void send(String text) {
            if (unsent.addAndGet(text.length()) > maxUnsent) { session.disconnect(); return; } // shed, without waiting
            session.sendText(text, Callback.from(() -> unsent.addAndGet(-text.length()), failed -> session.disconnect()));
        }
    }
}
