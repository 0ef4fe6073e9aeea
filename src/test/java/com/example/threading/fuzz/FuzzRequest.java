package com.example.threading.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One generated HTTP/1.1 request, as bytes on the wire: method, request target (path and query exactly as
 * sent, possibly not valid), header lines, a body and how it is framed. {@link #endpoint} names what was aimed at,
 * for the statistics and for the rules that depend on it.
 *
 * @param endpoint what the request was aimed at, e.g. {@code GET /work/cached} or {@code admin GET /metrics}
 * @param admin    whether it goes to the admin port
 * @param method   the request method, possibly not a valid token
 * @param target   the request target as sent
 * @param headers  header lines, {@code Name: value}, besides Host and Connection
 * @param body     the body bytes
 * @param framing  how the body is framed
 */
record FuzzRequest(String endpoint, boolean admin, String method, String target, List<String> headers, byte[] body,
                   Framing framing) {

    /** How a body goes on the wire. */
    enum Framing {
        /** No body and no framing header. */
        NONE,
        /** {@code Content-Length} of the body. */
        LENGTH,
        /** {@code Transfer-Encoding: chunked}, in chunks of up to 7 bytes. */
        CHUNKED,
        /** {@code Content-Length} larger than the body: the client then half-closes (a cut body). */
        TRUNCATED
    }

    /** The request's bytes: request line, Host, Connection: close, headers, framing, body. */
    byte[] bytes() {
        StringBuilder head = new StringBuilder()
                .append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\n")
                .append("Connection: close\r\n");
        headers.forEach(line -> head.append(line).append("\r\n"));
        switch (framing) {
            case LENGTH -> head.append("Content-Length: ").append(body.length).append("\r\n");
            case TRUNCATED -> head.append("Content-Length: ").append(body.length + 10).append("\r\n");
            case CHUNKED -> head.append("Transfer-Encoding: chunked\r\n");
            case NONE -> { }
        }
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        if (framing == Framing.CHUNKED) {
            for (int at = 0; at < body.length; at += 7) {
                int size = Math.min(7, body.length - at);
                out.writeBytes((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, at, size);
                out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        } else if (framing != Framing.NONE) {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    /** Whether the answer may have no body (HEAD). */
    boolean head() {
        return "HEAD".equals(method);
    }

    @Override
    public String toString() {
        String bodyText = new String(body, StandardCharsets.UTF_8);
        return endpoint + ": " + method + " " + abbreviate(target) + " " + headers + " " + framing + " body("
                + body.length + ")=" + abbreviate(bodyText);
    }

    private static String abbreviate(String text) {
        return text.length() <= 160 ? text : text.substring(0, 160) + "…(" + text.length() + ")";
    }
}
