/**
 * The long-poll transport ({@link com.example.threading.events.longpoll.LongPollTransport}):
 * {@code GET /events?topic=T[:N[:E]]&timeout=<s>} parks the request in the hub as a started {@code AsyncContext}, with
 * no container timeout (the hub keeps the deadline), so no thread waits for the event; its
 * {@code Delivery} ({@code AsyncDelivery}) puts the hub's answer on HTTP — news {@code 200} with its JSON, a refusal
 * {@code 503} with {@code Retry-After}, the stop {@code 503} with {@code Connection: close}, the deadline {@code 204} —
 * through one non-blocking write. {@code GET /events/blocking} is its blocking twin, for comparison: each waiting
 * client holds a Jetty worker.
 *
 * <p>Threads: a Jetty worker admits the poll, parks it and returns; the dispatcher (or the thread that answered at
 * once, the deadline sweep, the stop) offers the answer; Jetty's threads write it and run the request's failure and
 * completion callbacks, which reach the poll's claim. Blocking waits sleep on their Jetty worker.
 */
package com.example.threading.events.longpoll;
