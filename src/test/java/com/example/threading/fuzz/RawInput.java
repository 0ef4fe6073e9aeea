package com.example.threading.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Bytes that may or may not be HTTP, sent on a raw connection in pieces with a pause between them (slow headers),
 * after which the client half-closes its side.
 *
 * @param kind    what kind of malformation, for the statistics
 * @param admin   whether it goes to the admin port
 * @param pieces  the bytes, in the pieces they are sent in
 * @param pauseMs the pause between two pieces
 */
record RawInput(String kind, boolean admin, List<byte[]> pieces, int pauseMs) {

    /**
     * Whether a request line was sent: a line end after something other than the empty lines HTTP/1.1 ignores before
     * one. Without it there is no request, and the server may close without an answer.
     */
    boolean hasRequestLine() {
        boolean started = false;
        for (byte[] piece : pieces) {
            for (byte b : piece) {
                if (b == '\n' && started) {
                    return true;
                }
                if (b != '\r' && b != '\n') {
                    started = true;
                }
            }
        }
        return false;
    }

    /** The whole input as text, abbreviated, for a failure message. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        pieces.forEach(piece -> text.append(new String(piece, StandardCharsets.ISO_8859_1)).append('|'));
        String shown = text.length() <= 300 ? text.toString() : text.substring(0, 300) + "…(" + text.length() + ")";
        return kind + (admin ? " (admin)" : "") + " in " + pieces.size() + " pieces, " + pauseMs + " ms apart: "
                + shown.replace("\r", "\\r").replace("\n", "\\n");
    }
}
