/**
 * The WebSocket transport ({@link com.example.threading.events.websocket.WebSocketBundle}):
 * {@code GET /events/ws?topic=T[:N[:E]]} upgrades to a socket (RFC 6455, Jetty's own WebSocket API) that receives each
 * event of its topics as one text message with the socket's position, and sends its own messages on the same
 * connection: {@code publish} (the bounds of {@code POST /events}), {@code subscribe} and {@code unsubscribe}. A
 * socket is one standing poll of the hub at a time ({@code EventSocket}, the poll's {@code Follower} a turn of it),
 * subscribed across events and replaced by a subscription change: each event becomes a message, each heartbeat period
 * a ping; the stop, a refusal, the lifetime, an ended credential or a slow reader end it with a last message and a
 * close code.
 *
 * <p>Threads: a Jetty worker checks the request and upgrades it; Jetty's threads read each frame on demand (the next
 * only once the last is handled); an event's messages are made and handed over on a container thread, never on the
 * hub's dispatcher, through one sequential executor per socket (so they keep the events' order) over one queue that
 * at most two container tasks per core drain ({@code DrainingExecutor}: no pool thread woken per socket per event);
 * Jetty writes them ({@code sendText} with a callback, never a blocking send); the {@code events-deadlines} thread
 * sweeps the sockets, dropping stalled readers, ending sockets past their lifetime or credentials, and giving back the
 * places of upgraded sockets that never opened.
 */
package com.example.threading.events.websocket;
