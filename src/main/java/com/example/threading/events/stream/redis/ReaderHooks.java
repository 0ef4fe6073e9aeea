package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.Event;
import java.util.function.Consumer;

/**
 * What a stream's reader thread reports to: the hub's subscriber (every event, in id order per topic), the stream's
 * metrics (gaps, reconnects), and a hook it runs about once per round (where the stream retries its connections).
 */
record ReaderHooks(Consumer<Event> subscriber, RedisStreamMetrics metrics, Runnable onEachRound) {
}
