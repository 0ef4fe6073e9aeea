package com.example.threading.events.websocket;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open sockets of this instance: the bound on how many ({@link #tryOpen}, given back when a socket closes), and
 * the sweep that drops sockets whose network took nothing for the drain deadline, ends those past their lifetime or
 * their credentials, and gives back the place of an upgraded socket that never opened. (Over HTTP/2 a client may
 * reset the socket's stream between the upgrade's answer and the open; for some such sockets Jetty then calls none
 * of the endpoint's methods, not even its close, so nothing else would give that place back.)
 *
 * <p>Thread-safety: any thread may call any method. The count of places and the sets of sockets are concurrent; a
 * place is taken before the upgrade and given back once: {@link #closed} when the socket closes, {@link #release} for
 * an upgrade that did not happen, or the sweep for a socket that never opened (the socket's own flags decide, once,
 * between its open and the sweep, and between its close and the sweep). The sweep runs on one thread and may see a
 * socket that is ending: ending twice is a no-op for the socket. {@code WebSocketTest} checks it over HTTP/2, thirty
 * streams reset around their upgrade: every place comes back, by the close or by the sweep; {@code SocketsLincheckTest}
 * over the interleavings of an unopened socket's close, its error and the sweep.
 */
final class Sockets {

    private final int maxSockets;
    private final long maxLifetimeNanos;
    private final long drainTimeoutNanos;
    private final long openTimeoutNanos;
    private final AtomicInteger places = new AtomicInteger();
    private final Set<EventSocket> open = ConcurrentHashMap.newKeySet();
    /** Upgraded, not known to be open yet; each leaves at its open, its close, or the sweep after the open timeout. */
    private final Set<EventSocket> upgraded = ConcurrentHashMap.newKeySet();

    Sockets(int maxSockets, long maxLifetimeNanos, long drainTimeoutNanos, long openTimeoutNanos) {
        this.maxSockets = maxSockets;
        this.maxLifetimeNanos = maxLifetimeNanos;
        this.drainTimeoutNanos = drainTimeoutNanos;
        this.openTimeoutNanos = openTimeoutNanos;
    }

    /** Takes a place for a new socket; false when {@code maxSockets} are open. */
    boolean tryOpen() {
        while (true) {
            int now = places.get();
            if (now >= maxSockets) {
                return false;
            }
            if (places.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Gives back a place taken by {@link #tryOpen} for a socket that never opened. */
    void release() {
        places.decrementAndGet();
    }

    /** The upgrade of {@code socket} was answered: the sweep gives its place back if it has not opened in time. */
    void upgraded(EventSocket socket) {
        upgraded.add(socket);
    }

    /** Registers an open socket, which holds a place taken by {@link #tryOpen}. */
    void started(EventSocket socket) {
        upgraded.remove(socket);
        open.add(socket);
    }

    /** The socket closed (opened or not): its place is free again. Called once per socket ({@link EventSocket} sees to it). */
    void closed(EventSocket socket) {
        upgraded.remove(socket);
        open.remove(socket);
        places.decrementAndGet();
    }

    /** Sockets open now. */
    int openCount() {
        return open.size();
    }

    int maxSockets() {
        return maxSockets;
    }

    /** Bytes the open sockets hold unsent. */
    long unsentBytes() {
        long sum = 0;
        for (EventSocket socket : open) {
            sum += socket.unsentBytes();
        }
        return sum;
    }

    /**
     * Drops the stalled sockets, ends those past their lifetime or credentials, and gives back the places of upgraded
     * sockets that did not open within the open timeout; every few hundred ms. How many places it gave back.
     */
    int sweep(long nowNanos) {
        int givenUp = 0;
        for (EventSocket socket : upgraded) {
            if (nowNanos - socket.openedNanos() > openTimeoutNanos) {
                upgraded.remove(socket); // either way; one that opened or closed meanwhile refuses to be given up
                if (socket.giveUpUnopened()) {
                    places.decrementAndGet();
                    givenUp++;
                }
            }
        }
        for (EventSocket socket : open) {
            if (socket.stalled(nowNanos, drainTimeoutNanos)) {
                socket.drop("nothing written for websocket.drainTimeout");
            } else if (nowNanos - socket.expiresNanos() >= 0) {
                socket.expired();
            } else if (nowNanos - socket.openedNanos() > maxLifetimeNanos) {
                socket.reconnect();
            }
        }
        return givenUp;
    }
}
