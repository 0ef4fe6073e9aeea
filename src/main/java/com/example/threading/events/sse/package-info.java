/**
 * The Server-Sent Events transport ({@link com.example.threading.events.sse.SseTransport}):
 * {@code GET /events/stream?topic=T[:N[:E]]} holds one response open and writes each event of its topics as one
 * frame whose {@code id:} is the stream's position, resumed with {@code Last-Event-ID}. A stream is a sequence of polls
 * of the hub ({@code SseStream} is each poll's {@code Delivery}): news becomes frames and the next poll, a deadline a
 * heartbeat; the stop, a refusal, the lifetime, an ended credential or a slow reader end it with a final event.
 *
 * <p>Threads: a Jetty worker checks and opens the stream; an answer's frames are made and queued on a container thread
 * ({@code AsyncContext.start}), never on the hub's dispatcher; Jetty's threads write them ({@code WriteListener});
 * the {@code events-deadlines} thread sweeps the streams, shedding stalled readers and ending streams past their
 * lifetime.
 */
package com.example.threading.events.sse;
