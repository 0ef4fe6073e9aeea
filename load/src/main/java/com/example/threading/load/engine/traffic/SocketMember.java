package com.example.threading.load.engine.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * One client of {@link SocketMembers}: its rooms, a ledger and a cursor per room, its position, and its sockets one after
 * the other. Each socket reads all the client's rooms ({@code GET /events/ws?topic=room-1:0&topic=room-11:0...}, then
 * from the last {@code position} the server sent); each {@code event} is recorded in its room's ledger at the time it was
 * read, a {@code missed} moves the cursors to the position after it. A socket the server or the network ends is counted
 * and followed by the next, at once after a {@code reconnect}, after the {@code retryAfterSeconds} of a {@code closing},
 * else after a short pause; after {@link #stop} the client ends instead.
 *
 * <p>With {@link TopicsTraffic.Publishing#SOCKET} the member also publishes ({@link #publish}): a {@code publish}
 * message with a {@code ref} of its own on its current socket, answered by the server's {@code ack} (the event's id)
 * or {@code error} with the same {@code ref}.
 *
 * <p>Thread-safety: see {@link SocketMembers}. One socket is open at a time: the next is opened only from the last one's
 * end (on Jetty's or the timer's thread), so the ledgers are written by one thread at a time, in order. The cursors are
 * atomic (the drain reads them on the scenario's thread); the position and the current socket are volatile; the client
 * ends once (an atomic flag) and then counts down the members' latch, after its last socket's last callback. Publishes
 * are sent from the publisher's thread; their answers, kept in a concurrent map by {@code ref}, are completed on
 * Jetty's threads (or by their timeout).
 */
final class SocketMember implements TopicsTraffic.RoomMember {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Pause before the next socket after a failed connect or an end without a {@code reconnect}, so none becomes a busy loop. */
    private static final long RETRY_MS = 100;

    private final int index;
    private final int[] rooms;
    private final String[] topics;
    private final Map<String, Integer> slotOfTopic = new LinkedHashMap<>();
    private final Map<Integer, DeliveryLedger> ledgers = new LinkedHashMap<>();
    private final AtomicLongArray cursors;
    private final SocketMembers.Shared shared;
    private final AtomicBoolean finished = new AtomicBoolean();
    /** The server's position after the last event or {@code missed} read; null before the first. */
    private volatile String position;
    private volatile MemberSocket current;
    private volatile boolean opened;
    private volatile boolean stopping;
    /** Publishes waiting for their answer, by their {@code ref}. */
    private final Map<Long, CompletableFuture<Long>> publishes = new ConcurrentHashMap<>();
    private final AtomicLong refs = new AtomicLong();

    /** Client {@code index}, a member of {@code rooms}; its first socket reads them from their start (cursor 0). */
    SocketMember(int index, int[] rooms, SocketMembers.Shared shared) {
        this.index = index;
        this.rooms = rooms.clone();
        this.topics = new String[rooms.length];
        this.cursors = new AtomicLongArray(rooms.length);
        this.shared = shared;
        for (int k = 0; k < rooms.length; k++) {
            topics[k] = shared.plan().roomPrefix() + rooms[k];
            slotOfTopic.put(topics[k], k);
            ledgers.put(rooms[k], new DeliveryLedger(0));
        }
    }

    @Override
    public int[] rooms() {
        return rooms.clone();
    }

    @Override
    public DeliveryLedger ledger(int room) {
        return ledgers.get(room);
    }

    @Override
    public long cursor(int k) {
        return cursors.get(k);
    }

    /** Opens the next socket, or ends the client once it is stopping; completes when the upgrade is answered either way. */
    CompletableFuture<Session> connect() {
        if (stopping) {
            finish();
            return CompletableFuture.completedFuture(null);
        }
        MemberSocket socket = new MemberSocket(this);
        current = socket;
        shared.counts().connects.incrementAndGet();
        URI instance = shared.plan().instances().get(index % shared.plan().instances().size());
        URI uri = URI.create("ws://" + instance.getRawAuthority() + "/events/ws?" + query());
        CompletableFuture<Session> upgrade;
        try {
            upgrade = shared.client().connect(socket, uri);
        } catch (IOException | RuntimeException refused) {
            upgrade = CompletableFuture.failedFuture(refused);
        }
        return upgrade.whenComplete((session, failure) -> {
            if (failure != null) {
                socket.failedToConnect();
            }
        });
    }

    /**
     * Publishes {@code dataJson} on {@code topic} from this member's socket; completes with the event's id from the
     * server's {@code ack}, or fails: with the {@code error}'s code, without an open socket, or after {@code timeout}.
     */
    CompletableFuture<Long> publish(String topic, String dataJson, Duration timeout) {
        long ref = refs.incrementAndGet();
        CompletableFuture<Long> answer = new CompletableFuture<>();
        publishes.put(ref, answer);
        MemberSocket socket = current;
        String text = "{\"publish\":{\"topic\":\"" + topic + "\",\"data\":" + dataJson + "},\"ref\":" + ref + "}";
        Callback sent = Callback.from(() -> { }, answer::completeExceptionally);
        if (socket == null) {
            sent.fail(new IOException("no open socket"));
        } else {
            socket.send(text, sent);
        }
        return answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((id, failure) -> publishes.remove(ref));
    }

    /** How a publish that gave no id went wrong: the server's {@code error} code, else the failure's kind. */
    static String kindOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof PublishRefused refused ? refused.getMessage() : cause.getClass().getSimpleName();
    }

    /** Whether a socket of this client has opened at least once. */
    boolean everOpened() {
        return opened;
    }

    /** Whether this client has read every room up to {@code newestPublished}'s id of it. */
    boolean caughtUp(AtomicLongArray newestPublished) {
        for (int k = 0; k < rooms.length; k++) {
            if (cursors.get(k) < newestPublished.get(rooms[k])) {
                return false;
            }
        }
        return true;
    }

    /** Ends the client: its socket is closed (or, between sockets, the next is not opened); the latch follows its end. */
    void stop() {
        stopping = true;
        MemberSocket socket = current;
        if (socket != null) {
            socket.close();
        }
    }

    /** On Jetty's thread: {@code socket} is open. */
    void opened(MemberSocket socket) {
        opened = true;
        if (stopping) {
            socket.close(); // stop() may have read the socket before this one
        }
    }

    /** On Jetty's thread: a text message of {@code socket}, read at {@code atNanos}. */
    void message(MemberSocket socket, String text, long atNanos) {
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (IOException unreadable) {
            shared.counts().otherMessages.incrementAndGet();
            return;
        }
        switch (message.path("type").asText()) {
            case "event" -> {
                JsonNode event = message.path("event");
                Integer k = slotOfTopic.get(event.path("topic").asText());
                long id = event.path("id").asLong(-1);
                if (k == null || id < 0) {
                    shared.counts().otherMessages.incrementAndGet();
                    return;
                }
                ledgers.get(rooms[k]).receive(id, atNanos);
                cursors.accumulateAndGet(k, id, Math::max);
                position = message.path("position").asText(position);
            }
            case "missed" -> {
                shared.counts().missed.incrementAndGet();
                position = message.path("position").asText(position);
                followPosition(position);
            }
            case "ack" -> answered(message, message.path("event").path("id").asLong(-1), null);
            case "error" -> answered(message, -1, "error " + message.path("code").asText("?"));
            case "reconnect", "closing", "refused", "expired" -> socket.lastWord(message.path("type").asText(),
                    TimeUnit.SECONDS.toMillis(message.path("retryAfterSeconds").asLong(0)));
            default -> shared.counts().otherMessages.incrementAndGet();
        }
    }

    /** The answer to one of this member's publishes, by its {@code ref}; anything else with that type is another message. */
    private void answered(JsonNode message, long id, String refusal) {
        CompletableFuture<Long> answer = message.has("ref") ? publishes.remove(message.path("ref").asLong()) : null;
        if (answer == null) {
            shared.counts().otherMessages.incrementAndGet();
        } else if (refusal == null && id > 0) {
            answer.complete(id);
        } else {
            answer.completeExceptionally(new PublishRefused(refusal == null ? "ack without an id" : refusal));
        }
    }

    /** On Jetty's (or the connect's) thread, once per socket: {@code socket} ended as {@code kind}; the next one follows. */
    void ended(MemberSocket socket, String kind) {
        if (!socket.wasOpened()) {
            shared.counts().failedConnects.incrementAndGet();
        } else if (!stopping) {
            shared.counts().ended(kind);
        }
        if (stopping) {
            finish();
            return;
        }
        long pauseMs = kind.equals("reconnect") ? 0 : kind.equals("closing") ? socket.retryAfterMs() : RETRY_MS;
        try {
            shared.timers().schedule(this::connect, pauseMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            finish(); // the run is over: no next socket
        }
    }

    /** The query of the next socket: the server's last position, else every room from its cursor. */
    private String query() {
        StringBuilder query = new StringBuilder();
        String from = position;
        if (from != null && !from.isEmpty()) {
            for (String topic : from.split(",")) {
                query.append(query.length() == 0 ? "" : "&").append("topic=").append(URLEncoder.encode(topic, StandardCharsets.UTF_8));
            }
        } else {
            for (int k = 0; k < rooms.length; k++) {
                query.append(k == 0 ? "" : "&").append("topic=").append(topics[k]).append(':').append(cursors.get(k));
            }
        }
        return query.toString();
    }

    /** Moves each room's cursor to the one {@code position} gives ({@code topic:cursor[:epoch]}, comma-separated). */
    private void followPosition(String position) {
        if (position == null) {
            return;
        }
        for (String topic : position.split(",")) {
            String[] parts = topic.split(":");
            Integer k = slotOfTopic.get(parts[0]);
            if (k != null && parts.length > 1) {
                try {
                    cursors.accumulateAndGet(k, Long.parseLong(parts[1]), Math::max);
                } catch (NumberFormatException notACursor) {
                    shared.counts().otherMessages.incrementAndGet();
                }
            }
        }
    }

    /** The server answered a publish with an {@code error} (its code in the message). */
    private static final class PublishRefused extends Exception {
        private static final long serialVersionUID = 1L;

        PublishRefused(String kind) {
            super(kind, null, false, false);
        }
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            shared.done().countDown();
        }
    }
}
