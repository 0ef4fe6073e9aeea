package com.example.threading.events.websocket;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open sockets of this instance: the bound on how many ({@link #tryOpen}, given back when a socket closes), and
 * the sweep that drops sockets whose network took nothing for the drain deadline and ends those past their lifetime or
 * their credentials.
 *
 * <p>Thread-safety: any thread may call any method. The count of places and the set of sockets are concurrent; a place
 * is taken before the upgrade and given back once: {@link #closed} when the socket closes, or {@link #release} for an
 * upgrade that did not happen. The sweep runs on one thread and may see a socket that is ending: ending twice is a
 * no-op for the socket.
 */
final class Sockets {

    private final int maxSockets;
    private final long maxLifetimeNanos;
    private final long drainTimeoutNanos;
    private final AtomicInteger places = new AtomicInteger();
    private final Set<EventSocket> open = ConcurrentHashMap.newKeySet();

    Sockets(int maxSockets, long maxLifetimeNanos, long drainTimeoutNanos) {
        this.maxSockets = maxSockets;
        this.maxLifetimeNanos = maxLifetimeNanos;
        this.drainTimeoutNanos = drainTimeoutNanos;
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

    /** Registers an open socket, which holds a place taken by {@link #tryOpen}. */
    void started(EventSocket socket) {
        open.add(socket);
    }

    /** The socket closed (opened or not): its place is free again. Called once per socket ({@link EventSocket} sees to it). */
    void closed(EventSocket socket) {
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

    /** Characters the open sockets hold unsent. */
    long unsentBytes() {
        long sum = 0;
        for (EventSocket socket : open) {
            sum += socket.unsentBytes();
        }
        return sum;
    }

    /** Drops the stalled sockets and ends those past their lifetime or credentials; every few hundred ms. */
    void sweep(long nowNanos) {
        for (EventSocket socket : open) {
            if (socket.stalled(nowNanos, drainTimeoutNanos)) {
                socket.drop("nothing written for events.websocket.drainTimeout");
            } else if (nowNanos - socket.expiresNanos() >= 0) {
                socket.expired();
            } else if (nowNanos - socket.openedNanos() > maxLifetimeNanos) {
                socket.reconnect();
            }
        }
    }
}
