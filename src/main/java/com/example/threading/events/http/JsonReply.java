package com.example.threading.events.http;

import java.util.Map;

/**
 * A complete JSON answer to an HTTP request, decided before it is written: its status, headers and body, which a
 * {@link NonBlockingWrite} puts on the wire together.
 *
 * @param status  the HTTP status
 * @param headers headers beside {@code Content-Type} and {@code Content-Length}
 * @param body    the JSON body; not empty
 */
public record JsonReply(int status, Map<String, String> headers, byte[] body) {

    /** Copies the headers so the reply cannot change after it was decided. */
    public JsonReply {
        headers = Map.copyOf(headers);
    }
}
