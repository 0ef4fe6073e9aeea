package com.example.threading.events.websocket;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.access.TopicGrant;
import com.example.threading.events.history.FollowedCursors;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.history.TopicNews;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.EventsJson;
import com.example.threading.events.http.PollParameters;
import com.example.threading.events.hub.Answer;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.Follower;
import com.example.threading.events.hub.ParkedPoll;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WebSocket of {@code GET /events/ws}: a standing poll of the hub ({@link EventHub#follow}), subscribed across
 * events as an event stream is, and the client's messages (publish, subscribe, unsubscribe) on the same connection.
 * Each standing poll has a {@link Turn} as its {@link Follower}: each event of its topics becomes one message; news its
 * cursors had when it was placed is sent the same way, and the socket follows again from after it; each heartbeat
 * period becomes a ping; the stop, a refusal, the lifetime, an ended credential or a slow reader end the socket with a
 * last message and a close code. Event messages are batched, and one flush queued behind the socket's waiting tasks
 * writes what they all batched: a socket that fell behind catches up in one write, not one per event. A subscription
 * change withdraws the standing poll and places a new one. Frames are read on demand: the next message is asked for
 * once the last is handled, so a client that sends fast is read no faster than it is served.
 *
 * <p>Thread-safety: the subscription (each topic's cursor and epoch) and the poll out now are guarded by {@link #lock}.
 * Two kinds of thread take it: the container threads that run, one at a time and in the order the hub told them, the
 * tasks of {@code inOrder} (the news, an answer, a heartbeat: on the shared {@link DrainingExecutor}'s drainers, not
 * on the hub's dispatcher but when the container refuses tasks as it stops), and the reading thread changing the
 * subscription; each finishes its work, the next poll included, before it lets go. News is for the {@link Turn} that
 * was current when it was placed: a subscription change places a new turn, and what the old one was handed, if it was
 * already on its way, is dropped under the lock, its events read again by the new poll from the same cursors. Locks
 * are taken in one order, this socket's then the hub's (placing and withdrawing polls); the hub never calls into a
 * socket under its own lock but to attach a poll, which takes no lock. Sends go through {@link SocketOutput} from any
 * of these threads and from the stream's completion (a publish's answer). The ending flag is atomic and read before
 * every poll is placed.
 *
 * <p>Public only because Jetty binds a listener's methods through a public lookup: a package-private listener class
 * fails every upgrade ({@code IllegalAccessException: class is not public}). Nothing outside the package can make one.
 */
public final class EventSocket implements Session.Listener {

    /** Everything a socket needs besides its caller and topics. */
    record Shared(EventHub hub, SocketJson json, EventsJson<byte[]> eventJson, ObjectReader reader, Sockets sockets,
                  SocketMetrics metrics, SocketPublishing publishing, AccessGate access, Executor executor, long heartbeatMs,
                  int maxTopics, long maxUnsentBytes, int maxMessagesPerSecond, LongSupplier nanoClock) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(EventSocket.class);

    private final Shared with;
    private final TopicGrant subscriber;
    private final AccessDecision publisher;
    private final long openedNanos;
    private final long expiresNanos;
    /** The upgrade's request context (id, trace, caller), current around everything done for this socket. */
    private final Context requestContext;
    private final MessageRate rate;
    private final AtomicInteger publishesInFlight = new AtomicInteger();
    private final AtomicBoolean ending = new AtomicBoolean();
    private final AtomicBoolean shed = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();
    /** Set once: by the open, or by the sweep giving up a socket that did not open in time; the first one wins. */
    private final AtomicBoolean openOrGivenUp = new AtomicBoolean();
    private final Object lock = new Object();
    /** Runs what the hub tells the socket one task at a time, in order, on the drainers of the container's threads. */
    private final Executor inOrder;
    /** Each topic's cursor and epoch, in the order subscribed. */
    @GuardedBy("lock")
    private final FollowedCursors cursors;
    /** What waits for the flush queued behind it: the batches whose messages it writes. */
    @GuardedBy("lock")
    private final List<Runnable> flushWaiters = new ArrayList<>();
    /** The standing poll out now; null between an answer at once and the next poll, and once the socket ends. */
    @GuardedBy("lock")
    private Turn current;
    /** Set once, by {@link #onWebSocketOpen}, before the socket is registered for the sweep. */
    private volatile Session session;
    private volatile SocketOutput output;

    /**
     * A socket for {@code subscriber} reading {@code asked}, publishing with {@code publisher}'s credentials (a refusal
     * answers each publish); it ends at {@code expiresNanos} (its credentials' end; far ahead when they do not).
     */
    EventSocket(Shared with, TopicGrant subscriber, AccessDecision publisher, List<TopicCursor> asked, long openedNanos,
                long expiresNanos, Context requestContext) {
        this.with = with;
        this.subscriber = subscriber;
        this.publisher = publisher;
        this.openedNanos = openedNanos;
        this.expiresNanos = expiresNanos;
        this.requestContext = requestContext;
        this.rate = new MessageRate(with.maxMessagesPerSecond(), with.nanoClock());
        this.cursors = new FollowedCursors(asked);
        this.inOrder = MoreExecutors.newSequentialExecutor(with.executor());
    }

    @Override
    public void onWebSocketOpen(Session opened) {
        if (!openOrGivenUp.compareAndSet(false, true)) { // given up: its place is another socket's now
            opened.close(StatusCode.TRY_AGAIN_LATER, "opened after websocket.openTimeout", Callback.NOOP);
            return;
        }
        session = opened;
        output = new SocketOutput(opened, with.maxUnsentBytes(), with.nanoClock());
        with.sockets().started(this);
        with.metrics().opened.mark();
        try (Scope scope = requestContext.makeCurrent()) {
            synchronized (lock) {
                poll();
            }
        }
        opened.demand();
    }

    @Override
    public void onWebSocketText(String text) {
        try (Scope scope = requestContext.makeCurrent()) {
            handle(text);
        } finally {
            session.demand(); // the next message, only now: a client is read no faster than it is served
        }
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
        callback.succeed();
        with.metrics().badMessages.mark();
        finish(with.json().error(400, "binary messages are not accepted: send JSON text", null), StatusCode.BAD_DATA,
                "binary messages are not accepted");
        session.demand();
    }

    @Override
    public void onWebSocketPing(ByteBuffer payload) {
        session.sendPong(payload, Callback.NOOP); // an endpoint that takes pings answers them itself
        session.demand();
    }

    @Override
    public void onWebSocketPong(ByteBuffer payload) {
        session.demand();
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
        released();
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        LOG.debug("socket failed", cause);
        released();
    }

    long openedNanos() {
        return openedNanos;
    }

    /** When its credentials end, on the same clock as {@link #openedNanos}. */
    long expiresNanos() {
        return expiresNanos;
    }

    /** Bytes of this socket not yet written. */
    long unsentBytes() {
        SocketOutput out = output;
        return out == null ? 0 : out.unsentBytes();
    }

    /** Whether its network has taken nothing for {@code drainTimeoutNanos} while messages wait. */
    boolean stalled(long nowNanos, long drainTimeoutNanos) {
        SocketOutput out = output;
        return out != null && out.stalled(nowNanos, drainTimeoutNanos);
    }

    /** Ends the socket after its lifetime: a {@code reconnect} message, close code 1001. */
    void reconnect() {
        if (!ending.get()) {
            with.metrics().lifetimeEnds.mark();
            finish(with.json().last("reconnect", "socket lifetime reached, reconnect from your last position"),
                    StatusCode.SHUTDOWN, "lifetime reached");
        }
    }

    /** Ends the socket when its credentials do: an {@code expired} message, close code 1008. */
    void expired() {
        if (!ending.get()) {
            with.metrics().expiredEnds.mark();
            finish(with.json().last("expired", "the credentials expired; reconnect with new ones"),
                    StatusCode.POLICY_VIOLATION, "credentials expired");
        }
    }

    /**
     * Drops a socket whose network takes nothing, at once and without a close frame (that could not be written); also
     * one already shed, whose close frame waits behind what it does not read. Counted once.
     */
    void drop(String reason) {
        if (shed.compareAndSet(false, true)) {
            with.metrics().shed.mark();
        }
        LOG.debug("socket dropped: {}", reason);
        ending.set(true);
        withdrawCurrent();
        output.disconnect();
    }

    /** A message for the client would take it beyond its budget: close code 1008 after what it has not read. */
    private void shedOverBudget() {
        if (shed.compareAndSet(false, true)) {
            with.metrics().shed.mark();
            ending.set(true);
            withdrawCurrent();
            output.close(StatusCode.POLICY_VIOLATION, "shed: more than websocket.maxUnsentBytes unsent");
        }
    }

    private void handle(String text) {
        with.metrics().messages.mark();
        if (!rate.tryTake()) {
            with.metrics().limited.mark();
            reply(with.json().error(429, "more than " + with.maxMessagesPerSecond() + " messages per second"
                    + " (websocket.maxMessagesPerSecond): this one was dropped", null));
            return;
        }
        ClientMessage message;
        try {
            message = ClientMessage.parse(with.reader(), text, with.maxTopics());
        } catch (ClientMessage.Refusal refusal) {
            with.metrics().badMessages.mark();
            reply(with.json().error(400, refusal.getMessage(), refusal.ref()));
            return;
        }
        switch (message.kind()) {
            case PUBLISH -> with.publishing().publish(message, publisher, publishesInFlight, this::reply);
            case SUBSCRIBE, UNSUBSCRIBE -> change(message);
        }
    }

    /** Sends an answer to the client's message; a socket too far behind to take it is shed. */
    private void reply(String text) {
        if (!ending.get() && output.send(text) == SocketOutput.Sent.OVER_BUDGET) {
            shedOverBudget();
        }
    }

    /** Subscribes or unsubscribes, without a new connection: the poll out now is replaced by one of the new topics. */
    private void change(ClientMessage message) {
        JsonNode ref = message.ref();
        List<TopicCursor> asked;
        try {
            asked = message.kind() == ClientMessage.Kind.SUBSCRIBE
                    ? PollParameters.parse(message.topics().toArray(String[]::new), null, null, null, 1, 1, with.maxTopics()).topics()
                    : message.topics().stream().map(topic -> new TopicCursor(TopicNames.check(topic), null)).toList();
        } catch (IllegalArgumentException e) {
            with.metrics().badMessages.mark();
            reply(with.json().error(400, e.getMessage(), ref));
            return;
        }
        if (message.kind() == ClientMessage.Kind.SUBSCRIBE) {
            AccessDecision allowed = with.access().authorize(subscriber, TopicAccess.Action.SUBSCRIBE,
                    asked.stream().map(TopicCursor::topic).toList());
            if (!allowed.admitted()) {
                with.metrics().badMessages.mark();
                reply(with.json().error(allowed.status(), allowed.message(), ref));
                return;
            }
        }
        String answer;
        synchronized (lock) {
            if (ending.get()) {
                return;
            }
            Set<String> next = new LinkedHashSet<>(cursors.topics());
            for (TopicCursor topic : asked) {
                if (message.kind() == ClientMessage.Kind.SUBSCRIBE) {
                    next.add(topic.topic()); // a topic read already restarts from the cursor given
                } else {
                    next.remove(topic.topic());
                }
            }
            if (next.isEmpty() || next.size() > with.maxTopics()) {
                with.metrics().badMessages.mark();
                answer = with.json().error(400, "a socket reads between 1 and " + with.maxTopics()
                        + " topics (events.maxTopicsPerPoll); this change would leave " + next.size(), ref);
            } else {
                Turn was = current;
                if (was != null) {
                    cursors.keepParked(was.poll.cursors());
                    withdraw(was);
                }
                for (TopicCursor topic : asked) {
                    if (message.kind() == ClientMessage.Kind.SUBSCRIBE) {
                        cursors.follow(topic);
                    } else {
                        cursors.drop(topic.topic());
                    }
                }
                poll();
                answer = with.json().subscribed(cursors.topics(), cursors.position(), ref);
            }
        }
        reply(answer);
    }

    /** On a container thread: the answer of {@code turn}'s poll, unless the poll was withdrawn or replaced meanwhile. */
    private void answered(Turn turn, Answer answer, BooleanSupplier claim) {
        synchronized (lock) {
            if (!claim.getAsBoolean()) {
                return; // its deadline or a withdrawal took the poll first
            }
            Runnable done = turn.poll::completed; // the batch's event-to-last-write ends once its messages are written
            try {
                if (turn == current && !ending.get()) {
                    current = null;
                    if (deliver(answer)) {
                        afterFlush(done);
                        done = null;
                    }
                } // else replaced by a subscription change (whose poll reads from the same cursors) or ended
            } finally {
                if (done != null) {
                    done.run();
                }
            }
        }
    }

    /** Delivers a poll's answer; true if it batched events that wait for a flush. */
    @GuardedBy("lock")
    private boolean deliver(Answer answer) {
        if (answer instanceof Answer.News news) {
            if (sendEvents(news.answer())) {
                poll(); // follows again from after the news
                return true;
            }
        } else if (answer instanceof Answer.Closing closing) {
            with.metrics().shutdownEnds.mark();
            finish(with.json().closing("server is stopping, reconnect", closing.retryAfterSeconds()),
                    StatusCode.SHUTDOWN, "server is stopping");
        } else if (answer instanceof Answer.Refused refused) {
            with.metrics().hubRefusals.mark();
            finish(with.json().last("refused", refused.reason()), StatusCode.TRY_AGAIN_LATER, "try again later");
        }
        return false;
    }

    /** On a container thread: the next events of one of the socket's topics, unless its turn was replaced meanwhile. */
    private void followed(Turn turn, TopicNews news, Runnable handed) {
        synchronized (lock) {
            Runnable done = handed; // the batch's event-to-last-write ends once the messages are written
            try {
                if (turn == current && !ending.get()) {
                    cursors.keepParked(turn.poll.cursors()); // a topic asked without a cursor reads after its parked id
                    if (sendEvents(news)) {
                        afterFlush(done);
                        done = null;
                    }
                } // else replaced by a subscription change (whose poll reads from the same cursors) or ended
            } finally {
                if (done != null) {
                    done.run();
                }
            }
        }
    }

    /**
     * Runs {@code done} once the messages batched so far are written: the first waiter queues a flush behind the tasks
     * queued for this socket now, so the events of all of them leave in one write.
     */
    @GuardedBy("lock")
    private void afterFlush(Runnable done) {
        flushWaiters.add(done);
        if (flushWaiters.size() == 1) {
            inOrder.execute(this::flush);
        }
    }

    /** On a container thread, in order: writes what the tasks before it batched, then tells their batches. */
    private void flush() {
        synchronized (lock) {
            output.flush();
            flushWaiters.forEach(Runnable::run); // as the batches' ends ran before: under the lock, nothing blocking
            flushWaiters.clear();
        }
    }

    /** On a container thread: a heartbeat period passed; a ping, and the poll stands. */
    private void heartbeat(Turn turn) {
        synchronized (lock) {
            if (turn != current || ending.get()) {
                return;
            }
            output.ping();
            with.metrics().heartbeats.mark();
        }
    }

    /**
     * Batches one message per event of {@code answer}, to be written by the next {@link #flush}; false if that took
     * the socket over its budget (then shed; its close frame writes what is batched).
     */
    @GuardedBy("lock")
    private boolean sendEvents(Object answer) {
        List<byte[]> messages = messages(answer);
        for (byte[] message : messages) {
            if (output.sendBatched(message) == SocketOutput.Sent.OVER_BUDGET) {
                shedOverBudget();
                return false;
            }
        }
        with.metrics().eventsWritten.mark(messages.size());
        LOG.debug("socket sent: {} messages", messages.size());
        return true;
    }

    @GuardedBy("lock")
    private void poll() {
        if (ending.get()) {
            return;
        }
        Turn next = new Turn();
        current = next;
        with.hub().follow(next, cursors.asked(), with.heartbeatMs());
    }

    /** Ends the socket with {@code last} and the close frame {@code code} once what is queued before them is written. */
    private void finish(String last, int code, String reason) {
        if (ending.compareAndSet(false, true)) {
            withdrawCurrent();
            output.sendLast(last);
            output.close(code, reason);
        }
    }

    /**
     * Gives up a socket the sweep found upgraded longer than the open timeout ago: true when its place is to be given
     * back (it will never run), false when it opened or was released first.
     */
    boolean giveUpUnopened() {
        if (!openOrGivenUp.compareAndSet(false, true)) {
            return false;
        }
        ending.set(true);
        return released.compareAndSet(false, true);
    }

    /** The socket closed or failed: no more polls, the waiting one withdrawn, its place given back (once, opened or not). */
    private void released() {
        ending.set(true);
        withdrawCurrent();
        if (released.compareAndSet(false, true)) {
            with.sockets().closed(this);
        }
    }

    private void withdrawCurrent() {
        synchronized (lock) {
            Turn was = current;
            current = null;
            if (was != null) {
                withdraw(was);
            }
        }
    }

    @GuardedBy("lock")
    private void withdraw(Turn turn) {
        if (turn.poll != null && with.hub().withdraw(turn.poll)) {
            turn.poll.completed(); // nobody answers it now: its deadline is dropped too
        }
    }

    /**
     * The messages of one answer, one per event, each with the socket's position after it; when events before them are
     * lost (or the cursor was of another history), first a {@code missed} message at the position before them.
     * Advances the cursors.
     */
    @GuardedBy("lock")
    private List<byte[]> messages(Object answer) {
        FollowedCursors.Read read = cursors.read(answer);
        List<byte[]> messages = new ArrayList<>(read.events().size() + 1);
        if (read.missedAt() != null) {
            messages.add(with.json().missed(read.missedAt()).getBytes(StandardCharsets.UTF_8));
        }
        List<byte[]> json = with.eventJson().of(read.events());
        for (int i = 0; i < json.size(); i++) {
            messages.add(SocketJson.event(json.get(i), read.positions().get(i)));
        }
        return messages;
    }

    /** Queues {@code work}, in the socket's context, behind what the hub told the socket before. */
    private void inOrder(Runnable work) {
        inOrder.execute(requestContext.wrap(work));
    }

    /**
     * One standing poll of the socket: the hub's {@link Follower} for it. What it is told is handed to a container
     * thread, so the hub's one dispatcher thread never waits for a socket's messages to be made and handed over.
     */
    private final class Turn implements Follower {

        /** Set by the hub before the poll is placed, on the thread placing it. */
        private volatile ParkedPoll poll;

        @Override
        public void attach(ParkedPoll placed) {
            poll = placed;
        }

        @Override
        public void offer(Answer answer, BooleanSupplier claim) {
            inOrder(() -> answered(this, answer, claim));
        }

        @Override
        public void follow(TopicNews news, Runnable handed) {
            inOrder(() -> followed(this, news, handed));
        }

        @Override
        public void expire() {
            inOrder(() -> heartbeat(this));
        }

        @Override
        public void abandon() {
            poll.completed(); // only a poll whose request failed is abandoned; a socket reports none (it withdraws)
        }
    }
}
