/**
 * Long-poll events: {@code GET /events?after=<id>&timeout=<s>} parks the request (a started
 * {@code AsyncContext}; no thread waits) until an event after the client's cursor, and every parked poll is
 * answered in one batch per event; {@code POST /events} publishes one; {@code GET /events/blocking} is the
 * blocking twin for comparison, where each waiting client holds a Jetty worker. Answers: 200 with
 * {@link com.example.threading.longpoll.EventBatch} ({@code events}, {@code missed}, {@code lastId}), 204 at
 * the poll's timeout, 503 with {@code Retry-After} when the hub is full or the server is stopping, JSON 400
 * for a bad query, and 401/403 from the access policy ({@code events.auth}) before anything else happens.
 * {@code GET /events/stream} is the same hub as Server-Sent Events: a stream is a sequence of polls
 * on one response ({@link com.example.threading.longpoll.SseStream}), each event one frame whose {@code id:} is the
 * stream's position, resumed with {@code Last-Event-ID} (docs/sse.md).
 *
 * <p>Threads:
 * <ul>
 *   <li>Jetty workers run {@link com.example.threading.longpoll.LongPollServlet}: ask the access policy
 *       ({@link com.example.threading.longpoll.AccessGate}, {@link com.example.threading.longpoll.TopicAccess}: who is
 *       calling, then whether it may read every topic asked), parse, start async mode,
 *       {@link com.example.threading.longpoll.EventHub#poll} parks the poll (or answers it at once when the
 *       cursor already has news) and the worker returns.</li>
 *   <li>{@code POST /events}: a Jetty worker checks the head (the access policy; by default
 *       {@link com.example.threading.longpoll.PublishAccess},
 *       type, length), starts async mode and registers a {@link com.example.threading.longpoll.NonBlockingBody}
 *       ({@code ReadListener}) and returns; Jetty's threads run its read callbacks as bytes arrive, and the JDK's
 *       delay scheduler fires the body deadline. No thread waits for a slow client.</li>
 *   <li>The publishing thread ({@code events-ticker}, or the Jetty thread that read the last byte of a
 *       {@code POST}) calls
 *       {@link com.example.threading.longpoll.EventSink#publish}; the in-process stream delivers the event to
 *       {@link com.example.threading.longpoll.EventHub#accept} on that thread, which appends it to the history
 *       and swaps out the set of parked polls under the hub's lock, and wakes the blocking waiters.</li>
 *   <li>One dispatcher thread ({@code events-dispatch-0}) offers each poll of the batch its
 *       {@link com.example.threading.longpoll.Answer} through the poll's
 *       {@link com.example.threading.longpoll.Delivery}; the long-poll transport's
 *       ({@link com.example.threading.longpoll.AsyncDelivery}) only registers a
 *       {@link com.example.threading.longpoll.NonBlockingAnswer} ({@code WriteListener}), so a slow reader cannot
 *       hold the dispatcher up.</li>
 *   <li>Jetty's threads run the write callbacks and each poll's failure and completion callbacks, which reach
 *       {@link com.example.threading.longpoll.PollClaims}; one claim there lets exactly one of the batch's write,
 *       the timeout, a failure or the shutdown answer a poll.</li>
 *   <li>One scheduled thread ({@code events-deadlines}) sweeps the polls' deadlines every 100 ms
 *       ({@link com.example.threading.longpoll.PollDeadlines}) and answers the expired ones 204: the polls carry no
 *       Jetty async timeout, whose per-request timer would be cancelled behind one shared lock for every answer.</li>
 *   <li>For {@code GET /events/stream}, the dispatcher (or the thread that answered at once, or the deadline thread at a
 *       heartbeat) queues the stream's frames on its {@link com.example.threading.longpoll.SseOutput} and places its next
 *       poll; Jetty's threads write the frames ({@code WriteListener}); the {@code events-deadlines} thread also sweeps
 *       the streams every 250 ms ({@link com.example.threading.longpoll.SseStreams}), shedding stalled readers and
 *       ending streams past their lifetime.</li>
 *   <li>Jetty workers of {@code GET /events/blocking} sleep in
 *       {@link com.example.threading.longpoll.BlockingWaits} until news, their timeout or shutdown.</li>
 *   <li>The thread that stops the server runs {@link com.example.threading.longpoll.StopAnsweringParkedPolls}:
 *       every blocking waiter wakes, and every parked poll gets a full 503, spread over {@code events.shutdownSpread}
 *       ({@link com.example.threading.longpoll.ShutdownSpread}), before the connectors close.</li>
 * </ul>
 *
 * <p>Entry class: {@link com.example.threading.longpoll.LongPollBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new LongPollBundle<>(MyConfiguration::getEvents))}; paths
 * {@link com.example.threading.longpoll.LongPollBundle#PATH} and
 * {@link com.example.threading.longpoll.LongPollBundle#BLOCKING_PATH});
 * configuration {@link com.example.threading.longpoll.EventsConfiguration} (section {@code events}); metrics
 * {@code events.*}. The guide (contract, faults, shutdown, figures) is {@code docs/longpoll.md}, publishing
 * {@code docs/longpoll-publishing.md}, topics {@code docs/longpoll-topics.md}; the "Reading the code" of
 * {@code docs/longpoll-internals.md} sorts these classes into the single-instance path and the parts built around it.
 *
 * <p>To copy: the whole package and one {@code addBundle} line. It needs Dropwizard core (Jetty 12 ee10 servlets,
 * Jackson, Metrics) and nothing from the other packages: the servlets complete their own async requests. The stream
 * is the seam for several instances: {@code events.stream.type} names an
 * {@link com.example.threading.longpoll.EventStreamFactory} whose {@link com.example.threading.longpoll.EventStream}
 * gives the hub its {@link com.example.threading.longpoll.EventSource},
 * {@link com.example.threading.longpoll.EventSink}, {@link com.example.threading.longpoll.EventArchive} (cursors the
 * ring cannot answer) and {@link com.example.threading.longpoll.TickGate} (one ticker per cluster); in-process is
 * built in, the hub, history and servlets stay as they are for any other. The sub-package {@code longpoll.redis}
 * adds {@code redis} (Redis Streams, {@code docs/longpoll-redis.md}); this package compiles without it. Access is the
 * same kind of seam: {@code events.auth.type} names a {@link com.example.threading.longpoll.TopicAccessFactory};
 * {@code open} is built in, the sub-package {@code longpoll.auth} adds {@code jwt} (topics per action from a JWT's
 * claims, {@code docs/longpoll-auth.md}).
 */
package com.example.threading.longpoll;
