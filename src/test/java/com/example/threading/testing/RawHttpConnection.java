package com.example.threading.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

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

    /** Writes {@code bytes} as they are (e.g. invalid UTF-8, NUL) and flushes them; returns this connection. */
    public RawHttpConnection send(byte[] bytes) {
        try {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads until the server closes the connection and parses what came as one answer ({@link Reply#parse}). */
    public Reply readReply() {
        return Reply.parse(readToEnd());
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

    /**
     * The first answer in what a connection read: status, headers (names in lower case, last value wins) and the
     * body (de-chunked when {@code Transfer-Encoding: chunked}; otherwise everything after the head).
     *
     * @param status  the status code of the status line, or -1 when nothing (or no HTTP) came back
     * @param headers the header fields, names in lower case
     * @param body    the body as ISO-8859-1 text
     */
    public record Reply(int status, Map<String, String> headers, String body) {

        /** Parses {@code raw}, everything a connection read; interim {@code 100 Continue} answers are skipped. */
        public static Reply parse(String raw) {
            while (raw.startsWith("HTTP/1.1 100 ") && raw.contains("\r\n\r\n")) {
                raw = raw.substring(raw.indexOf("\r\n\r\n") + 4);
            }
            int headEnd = raw.indexOf("\r\n\r\n");
            if (!raw.startsWith("HTTP/") || headEnd < 0) {
                return new Reply(-1, Map.of(), raw);
            }
            String[] lines = raw.substring(0, headEnd).split("\r\n");
            String[] statusLine = lines[0].split(" ", 3);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
            }
            String body = raw.substring(headEnd + 4);
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = dechunk(body);
            } else if (headers.containsKey("content-length")) {
                body = body.substring(0, Math.min(body.length(), Integer.parseInt(headers.get("content-length"))));
            }
            return new Reply(Integer.parseInt(statusLine[1]), headers, body);
        }

        /** The value of header {@code name} (any case), or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        private static String dechunk(String chunked) {
            StringBuilder body = new StringBuilder();
            int at = 0;
            while (at < chunked.length()) {
                int lineEnd = chunked.indexOf("\r\n", at);
                if (lineEnd < 0) {
                    break;
                }
                int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";", 2)[0].trim(), 16);
                if (size == 0) {
                    break;
                }
                body.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + size));
                at = lineEnd + 2 + size + 2;
            }
            return body.toString();
        }
    }
}
