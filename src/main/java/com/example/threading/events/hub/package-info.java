/**
 * The core of the events wing, which knows no HTTP: {@link com.example.threading.events.hub.EventHub} holds the topics,
 * places each poll (answered at once, refused, or parked on each of its topics), and answers the polls an event takes
 * in one batch. A transport hands the hub a {@link com.example.threading.events.hub.Delivery} per poll and gets the
 * hub's {@link com.example.threading.events.hub.Answer} (news, refused, closing), or {@code expire} at the poll's
 * deadline and {@code abandon} after its failure. A client that stays subscribed (an event stream, a socket) places one
 * standing poll ({@code follow}, with a {@link com.example.threading.events.hub.Follower}), which stays parked and is
 * handed each event of its topics from the same dispatcher, in order.
 *
 * <p>Threads:
 * <ul>
 *   <li>Request threads call {@code poll}; reading the cursors, the bounds and the parking happen under the hub's
 *       lock, and a poll with news is offered its answer at once, on that thread.</li>
 *   <li>The stream's delivering thread calls {@code accept}/{@code acceptAll}: the event is appended and the polls it
 *       answers are taken out under the same lock; then one dispatcher thread offers each its answer
 *       ({@link com.example.threading.events.hub.BatchAnswers}); a delivery never blocks, so a slow reader cannot
 *       hold the batch up.</li>
 *   <li>One scheduled thread sweeps the deadlines ({@link com.example.threading.events.hub.PollDeadlines}) and idle
 *       topics.</li>
 *   <li>Whoever answers a poll (a batch, the hub at once, the deadline, a failure, the stop) takes it with one claim
 *       ({@link com.example.threading.events.hub.ParkedPoll#claim}): exactly one wins, at write time.</li>
 *   <li>Jetty workers of the blocking twin sleep in {@link com.example.threading.events.hub.BlockingWaits}.</li>
 * </ul>
 *
 * <p>The lock: the hub's one lock is taken only in {@code EventHub}, whose {@code @GuardedBy} fields Error Prone checks
 * as the build compiles; what runs under it ({@code Topics}, {@code PollPlacer}, {@code BatchAnswers.read}, the
 * histories) is plain code the hub calls with the lock held, and holds no lock of its own. The one exception is
 * {@code BlockingWaits}, whose threads sleep on a condition of that lock.
 *
 * <p>Imports nothing of the servlet API, Jetty or Dropwizard; its one use of JSON is the shared answer body
 * ({@code NewsJson}).
 */
package com.example.threading.events.hub;
