/**
 * The Server-Sent Events transport ({@link com.example.threading.events.sse.SseBundle}):
 * {@code GET /events/stream?topic=T[:N[:E]]} holds one response open and writes each event of its topics as one
 * frame whose {@code id:} is the stream's position, resumed with {@code Last-Event-ID}. A stream is one standing poll
 * of the hub ({@code SseStream} is its {@code Follower}), subscribed across events: each event becomes a frame, each
 * heartbeat period a comment; the stop, a refusal, the lifetime, an ended credential or a slow reader end it with a
 * final event.
 *
 * <p>Threads: a Jetty worker checks and opens the stream; an event's frames are made and queued on a container thread
 * ({@code AsyncContext.start}, through one sequential executor per stream, so they keep the events' order), never on
 * the hub's dispatcher; Jetty's threads write them ({@code WriteListener});
 * the {@code events-deadlines} thread sweeps the streams, shedding stalled readers and ending streams past their
 * lifetime.
 */
package com.example.threading.events.sse;
