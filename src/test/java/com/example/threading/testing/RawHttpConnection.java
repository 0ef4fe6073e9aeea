package com.example.threading.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One TCP connection to a loopback port, for what an HTTP client will not do: send exactly the bytes given,
 * leave a request unfinished, go away without a word, or reset the connection.
 * <pre>{@code
 * try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
 *     connection.send(RawHttpConnection.requestHead("GET", "/events?timeout=2", "Connection: close"));
 *     String answer = connection.readToEnd();
 * }
 * }</pre>
 * Reads give up after {@link #READ_TIMEOUT_MS} without a byte ({@link UncheckedIOException}).
 *
 * <p>Thread-safety: not thread-safe; one test thread uses a connection (as with a socket).
 */
public final class RawHttpConnection implements AutoCloseable {

    /** A read with no byte for this long fails instead of hanging the test. */
    public static final int READ_TIMEOUT_MS = 30_000;

    private final Socket socket;

    private RawHttpConnection(Socket socket) {
        this.socket = socket;
    }

    /** Connects to {@code port} on the loopback address. */
    public static RawHttpConnection open(int port) {
        try {
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            return new RawHttpConnection(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code <method> <pathAndQuery> HTTP/1.1}, {@code Host}, the given header lines, and the blank line that ends the head. */
    public static String requestHead(String method, String pathAndQuery, String... headerLines) {
        StringBuilder head = new StringBuilder(method).append(' ').append(pathAndQuery).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\n");
        for (String line : headerLines) {
            head.append(line).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    /** Writes {@code text} as US-ASCII and flushes it; returns this connection. */
    public RawHttpConnection send(String text) {
        try {
            socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads until the server closes the connection (send {@code Connection: close} to make it do so). */
    public String readToEnd() {
        try {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes with a TCP reset (SO_LINGER 0) instead of a graceful FIN: the server's next write fails. */
    public void reset() {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The socket, for anything else (half-close, options). */
    public Socket socket() {
        return socket;
    }

    /** Closes gracefully (FIN); a no-op after {@link #reset}. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
