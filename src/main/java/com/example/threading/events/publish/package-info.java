/**
 * Publishing ({@link com.example.threading.events.publish.PublishEndpoints}): {@code POST /events[?topic=T]} one event,
 * {@code POST /events/batch} several, on one topic or several. The head is checked on the Jetty worker (access, media
 * type, declared size, room for the topics); the body is read by a {@code ReadListener} with a deadline of its own, so
 * no thread waits for a slow client; the events go to the stream's sink with a deadline
 * ({@code BoundedPublish}), and the answer is written from the stream's completion. The ticker
 * ({@link com.example.threading.events.publish.EventTicker}) publishes {@code {"tick":n}} on the default topic.
 *
 * <p>Threads: Jetty workers run the head checks; Jetty's read callbacks (or the JDK's delay scheduler, for a body's
 * deadline) parse and publish; the stream's completion (any thread) queues the answer's non-blocking write; the
 * ticker's scheduled thread publishes its ticks.
 */
package com.example.threading.events.publish;
