package com.example.threading.load.engine.http;

/**
 * What the long-poll clients' sockets did: {@code clients} clients, {@code openAtStart} connections open when
 * polling began (one per client when the tool kept up), {@code opened} connections opened in all and {@code peakOpen}
 * open at most at once (both counted by the HTTP client's I/O layer), {@code connectFailures} connects that failed
 * (each retried) and {@code reconnects} connections opened again after the server closed one.
 */
public record ClientConnections(int clients, long openAtStart, long opened, long peakOpen, long connectFailures, long reconnects) {

    /** The counts of several processes' clients, added up (peaks too: each process's clients have sockets of their own). */
    public ClientConnections plus(ClientConnections other) {
        return new ClientConnections(clients + other.clients, openAtStart + other.openAtStart, opened + other.opened,
                peakOpen + other.peakOpen, connectFailures + other.connectFailures, reconnects + other.reconnects);
    }

    /** None: no clients yet. */
    public static ClientConnections none() {
        return new ClientConnections(0, 0, 0, 0, 0, 0);
    }

    /** Whether every client had its own connection when polling began. */
    public boolean oneEach() {
        return openAtStart == clients;
    }
}
