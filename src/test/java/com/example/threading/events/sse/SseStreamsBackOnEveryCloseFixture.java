package com.example.threading.events.sse;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link SseStreams} with a seeded bug, for {@link SseStreamsLincheckTest}: a place is given back each time a stream's
 * completion is told, not once per stream, so a stream told twice (an error, then the completion) frees two places.
 */
final class SseStreamsBackOnEveryCloseFixture extends SseStreamsLincheckTest.Real {

    private final Set<SseStream> told = ConcurrentHashMap.newKeySet();

    SseStreamsBackOnEveryCloseFixture(int maxStreams) {
        super(new SseStreams(maxStreams, 1_000, Long.MAX_VALUE, Long.MAX_VALUE));
    }

    @Override
    public void closed(SseStream stream) {
        if (told.add(stream)) {
            streams.closed(stream);
        } else {
            streams.release(); // the seeded bug: the place given back again
        }
    }
}
