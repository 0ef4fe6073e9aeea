package com.example.threading.load.scenario.cost;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One endpoint the cost scenario loads: its file-safe name ({@code ping}, {@code work-cached}, ...), the label of its
 * table row, the URL h2load requests, the connections it opens, and for a publish the body file and headers of its
 * POST. A long poll is answered only when an event is published, so {@link Kind#LONG_POLL} runs with a publisher beside it.
 */
record Endpoint(String name, String label, Kind kind, URI url, int connections, Optional<Path> body, List<String> headers) {

    /** How the endpoint is requested and checked. */
    enum Kind {
        /** A GET answered at once; a first request checks that it is answered 2xx before h2load loads it. */
        GET,
        /** A POST of a JSON body; a first POST checks that publishing is allowed. */
        PUBLISH,
        /** A GET that parks until the next event: loaded with events published beside it, not checked first. */
        LONG_POLL
    }

    /** An endpoint; the headers are copied. */
    Endpoint {
        headers = List.copyOf(headers);
    }
}
