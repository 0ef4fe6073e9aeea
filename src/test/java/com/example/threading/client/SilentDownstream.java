package com.example.threading.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A downstream that accepts loopback connections, counts them and never answers. Thread-safety: the list is concurrent. */
final class SilentDownstream implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();

    SilentDownstream() {
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptUntilClosed, "silent-downstream");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    int accepted() {
        return connections.size();
    }

    private void acceptUntilClosed() {
        try {
            while (true) {
                connections.add(server.accept());
            }
        } catch (IOException closed) {
            // close() ends the loop
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            for (Socket connection : connections) {
                connection.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
