/**
 * The events wing: clients wait for events on topics without holding a thread, and publishers hand events in without
 * waiting for slow clients. This package is the long-poll's wiring; each role is a package of its own, and Server-Sent
 * Events and WebSocket are add-ons with bundles of their own.
 *
 * <table>
 *   <caption>The wing's packages, from the bottom up</caption>
 *   <tr><th>package</th><th>what it holds</th></tr>
 *   <tr><td>{@code events.stream}</td><td>the stream SPI: {@code Event}, {@code EventSink} (where publishers hand
 *       events), {@code EventSource} (where the hub receives them), {@code EventArchive}, {@code TickGate}, and the
 *       in-process stream; its sub-package {@code redis} is the plug-in shared by several instances, and
 *       {@code config} the {@code events.stream} section that chooses one</td></tr>
 *   <tr><td>{@code events.history}</td><td>each topic's ring of recent events, cursors and epochs, and what a cursor
 *       reads (from the ring, or from a shared stream's archive)</td></tr>
 *   <tr><td>{@code events.hub}</td><td>the core: topics, parking and claiming, one batch per event, deadlines, the
 *       stop's spread; answers go to each poll's {@code Delivery}. No HTTP</td></tr>
 *   <tr><td>{@code events.access}</td><td>who may read and publish which topic ({@code events.auth}); its sub-package
 *       {@code jwt} reads a token's claims</td></tr>
 *   <tr><td>{@code events.http}</td><td>what the HTTP transports share: routes by path and method, the poll query,
 *       the access gate, JSON answers and a non-blocking write</td></tr>
 *   <tr><td>{@code events.longpoll}</td><td>{@code GET /events} and its blocking twin {@code GET /events/blocking}</td></tr>
 *   <tr><td>{@code events.sse}</td><td>{@code GET /events/stream}, Server-Sent Events: an add-on,
 *       {@code SseBundle}</td></tr>
 *   <tr><td>{@code events.websocket}</td><td>{@code GET /events/ws}: subscribe and publish on one WebSocket: an
 *       add-on, {@code WebSocketBundle}</td></tr>
 *   <tr><td>{@code events.publish}</td><td>{@code POST /events}, {@code POST /events/batch}, and the ticker</td></tr>
 * </table>
 *
 * <p>The rules between them fail the build ({@code EventsLayersTest}): the stream SPI, the histories and the hub import
 * nothing of the servlet API, Jetty or Dropwizard; a transport imports no other transport; the plug-ins see only what
 * they build on; no package reads the wiring; the packages form no cycle.
 *
 * <p>Threads, end to end: Jetty workers admit a request (access, query) and park its poll in the hub or start its body
 * read, and return; the publishing thread (a Jetty read callback, the ticker, or a shared stream's reader) hands events
 * to the hub, which takes the polls they answer under its lock; one dispatcher thread ({@code events-dispatch-0})
 * offers each poll its answer, which the transport writes on a container thread; one scheduled thread
 * ({@code events-deadlines}) sweeps the polls' deadlines, idle topics, the event streams and the sockets; the stopping
 * thread answers every parked poll, spread ({@link com.example.threading.events.StopAnsweringParkedPolls}). Each
 * package's own page says who calls what from which thread.
 *
 * <p>Entry class: {@link com.example.threading.events.EventsBundle}
 * ({@code bootstrap.addBundle(new EventsBundle<>(MyConfiguration::getEvents))}); configuration
 * {@link com.example.threading.events.EventsConfiguration} (section {@code events}); metrics {@code events.*}. The
 * guides are {@code docs/longpoll.md} (contract, faults, shutdown, figures), {@code docs/longpoll-publishing.md},
 * {@code docs/longpoll-topics.md}, {@code docs/sse.md}, {@code docs/websocket.md} and {@code docs/longpoll-internals.md}.
 *
 * <p>To copy the long-poll: this package and its sub-packages but {@code sse}, {@code websocket},
 * {@code stream.redis} and {@code access.jwt}, and one {@code addBundle} line. Each of those four is optional, with a
 * bundle of its own: {@code SseBundle} and {@code WebSocketBundle} are added after this one, on what
 * {@link com.example.threading.events.EventsBundle#base()} gives; the other two add a {@code type} to a section. It
 * needs Dropwizard core (Jetty 12 ee10 servlets, Jackson, Metrics), Jetty's ee10 WebSocket server for
 * {@code events.websocket}, and nothing from the other patterns.
 */
package com.example.threading.events;
