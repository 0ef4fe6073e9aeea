package com.example.threading.load.engine.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Chat-room traffic on the long-poll's topics, the shape of CometD's benchmark: {@code clients} clients, each a member
 * of {@code roomsPerClient} of {@code rooms} rooms (topics), each holding one long poll of all its rooms with their
 * cursors ({@code GET /events?topic=room-1:4&topic=room-11:0&...}) and polling again as soon as it is answered, or,
 * with {@link Transport#WS}, one WebSocket of all its rooms ({@code GET /events/ws?topic=...}, {@link SocketMembers});
 * messages of {@code messageBytes} are published at a fixed rate in batches of {@code batchSize} sent at the same
 * instant (CometD's benchmark sends 10 per batch), round-robin over the instances: a batch in one
 * {@code POST /events/batch} (as CometD sends a batch in one request), or each message in its own {@code POST /events},
 * or, with {@link Transport#WS}, each message as a {@code publish} on a member's socket (as CometD's clients publish on
 * theirs; the members take turns, a batch each). Each
 * client keeps a {@link DeliveryLedger} per room (ids are per topic) that counts lost, duplicated and out-of-order
 * messages. Delivery latency is from a publish's intended send time (open model: a late send does not hide its wait)
 * to each member's receipt, once per member and message, in microseconds; and, to compare with CometD's benchmark, which
 * measures from when a message is really sent, from that too.
 *
 * <p>Rooms are assigned without randomness: client {@code c} is in rooms {@code (c + k * (rooms / roomsPerClient)) %
 * rooms} for {@code k < roomsPerClient}, so every room has the same number of members when {@code clients} is a
 * multiple of {@code rooms}; the rooms of each batch come from {@link BatchRooms}, round-robin or drawn with a fixed
 * seed, so two runs send the same requests.
 *
 * <p>Thread-safety: {@link #run} is called once, on the scenario's thread. The publisher runs on a scheduler and reads
 * its answers on an HTTP client of its own (it is another program than the members). Members on sockets run as
 * {@link SocketMembers} says; over long polls, each client's poll chain runs on
 * the members' HTTP client's threads: a client's next poll is sent only after its answer was recorded, so each
 * client's ledgers are touched by one thread at a time, each completion happening-before the next send. They share
 * only concurrent maps and a queue, atomics, a latch and the publishes' latency {@code Recorder} (written by the
 * publisher's client's thread). The scenario's thread waits for every publish's answer (their futures, queued by the
 * publisher) before it starts the drain, so the newest ids the clients catch up to, and the publishes' latencies, are
 * final; it fills the delivery latency histogram after the latch, which every chain counts down when it ends.
 */
public final class TopicsTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Pause before a client polls again after a refused or failed poll, so a refusal does not become a busy loop. */
    private static final long RETRY_MS = 100;

    /** Longest wait for a publish's answer; the drain waits for every answer, so this bounds that wait too. */
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);

    /** How the publisher sends a batch. */
    public enum Publishing {
        /** All of a batch's messages in one {@code POST /events/batch}. */
        BATCH("batch", "one POST /events/batch per batch"),
        /** One {@code POST /events} per message. */
        EACH("each", "one POST /events per message"),
        /** One {@code publish} message per event on a member's socket, answered by an {@code ack}: with {@link Transport#WS}. */
        SOCKET("socket", "one publish message per event on a member's socket, the members in turn");

        private final String label;
        private final String described;

        Publishing(String label, String described) {
            this.label = label;
            this.described = described;
        }

        /** As the report's configuration says it. */
        public String described() {
            return described;
        }

        /** The publishing named {@code label} (the tool's option): {@code batch}, {@code each} or {@code socket}. */
        public static Publishing named(String label) {
            for (Publishing publishing : values()) {
                if (publishing.label.equals(label)) {
                    return publishing;
                }
            }
            throw new IllegalArgumentException("--publish is batch, each or socket, not " + label);
        }
    }

    /** How the members read their rooms. */
    public enum Transport {
        /** One long poll of all a client's rooms at a time ({@code GET /events}), polled again on each answer. */
        LONG_POLL("long-poll"),
        /** One WebSocket of all a client's rooms ({@code GET /events/ws}), reconnected from its position when the server ends it. */
        WS("ws");

        private final String label;

        Transport(String label) {
            this.label = label;
        }

        /** The name the tool's options and report use: {@code long-poll} or {@code ws}. */
        public String label() {
            return label;
        }

        /** The transport named {@code label}. */
        public static Transport named(String label) {
            for (Transport transport : values()) {
                if (transport.label.equals(label)) {
                    return transport;
                }
            }
            throw new IllegalArgumentException("a transport is long-poll or ws, not " + label);
        }
    }

    /**
     * What to send: the instances' base URIs and the benchmark's shape; room {@code r} is the topic
     * {@code <roomPrefix><r>} (a warm-up run uses other rooms than the measured run that follows it on the same service);
     * {@code publishing}: how a batch is sent; {@code transport}: how the members read.
     */
    public record Plan(List<URI> instances, String roomPrefix, int clients, int rooms, int roomsPerClient, int messageBytes,
                       double messagesPerSecond, int batchSize, Publishing publishing, Duration duration, int pollTimeoutSeconds,
                       Transport transport) {

        /** Checks the shape: each client's rooms distinct, at least one of everything, a prefix of a topic name. */
        public Plan {
            instances = List.copyOf(instances);
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(publishing, "publishing");
            if (publishing == Publishing.SOCKET && transport != Transport.WS) {
                throw new IllegalArgumentException("publishing on the members' sockets needs the ws transport, not " + transport.label());
            }
            if (!roomPrefix.matches("[A-Za-z0-9._-]{1,50}")) {
                throw new IllegalArgumentException("a room prefix is 1 to 50 of [A-Za-z0-9._-], not " + roomPrefix);
            }
            if (instances.isEmpty() || clients < 1 || rooms < 1 || roomsPerClient < 1 || roomsPerClient > rooms
                    || messagesPerSecond <= 0 || batchSize < 1 || pollTimeoutSeconds < 1) {
                throw new IllegalArgumentException("need instances, clients >= 1, 1 <= rooms per client <= rooms, a rate "
                        + "> 0, a batch size >= 1 and a poll timeout >= 1 s; got " + clients + " clients, " + rooms + " rooms, "
                        + roomsPerClient + " per client, " + messagesPerSecond + "/s, batches of " + batchSize + ", timeout "
                        + pollTimeoutSeconds);
            }
        }
    }

    /**
     * What a run measured; rates are over the publishing time. {@code deliveries} counts the messages read of publishes
     * answered with their ids (the {@code expectedDeliveries}), each once. {@code missedAnswers} counts {@code missed}
     * answers of polls or {@code missed} messages of sockets; the poll counts are 0 over sockets, {@code sockets} is empty
     * over polls. {@code deliveryMicros} runs from each publish's intended send time, {@code deliveryFromSendMicros} from
     * when the publisher really sent it (CometD's benchmark measures from there: a late publisher's wait is not counted).
     */
    public record Result(Transport transport, int instances, long published, long publishFailures, Map<String, Long> publishFailureKinds,
                         long expectedDeliveries, long deliveries,
                         long lost, long skipped, long duplicated, long outOfOrder, long missedAnswers, long polls, long timedOutPolls,
                         long refusedPolls, long failedPolls, SocketCounts sockets, double maxPublishLagMs, Histogram publishMicros,
                         Histogram deliveryMicros, Histogram deliveryFromSendMicros, double publishingSeconds) {

        /** Deliveries never read although still ahead of the client's cursor when the drain ended: late, not skipped. */
        public long unreadAtEnd() {
            return lost - skipped;
        }

        /** Messages published per second. */
        public double messagesPerSecond() {
            return published / publishingSeconds;
        }

        /** First receipts per second (a message delivered to 100 members is 100 deliveries). */
        public double deliveriesPerSecond() {
            return deliveries / publishingSeconds;
        }
    }

    /**
     * What the sockets' members did: connects made (the first ones and every reconnect), connects that failed, sockets ended
     * by the server or the network, by kind (a final message's {@code type}, {@code close <code>} without one, {@code error
     * <exception>}), and messages that were neither events nor {@code missed} nor final ({@code error}s, unreadable text).
     */
    public record SocketCounts(long connects, long failedConnects, Map<String, Long> ends, long otherMessages) {

        /** Nothing: the members polled. */
        public static final SocketCounts NONE = new SocketCounts(0, 0, Map.of(), 0);

        /** Copies the ends, sorted by kind. */
        public SocketCounts {
            ends = Collections.unmodifiableMap(new TreeMap<>(ends));
        }

        /** Sockets the server or the network ended before the drain did (each one reconnected from its position). */
        public long ended() {
            return ends.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Plan plan;

    /** Traffic following {@code plan}. */
    public TopicsTraffic(Plan plan) {
        this.plan = plan;
    }

    /** The topic name of room {@code room}. */
    private String topic(int room) {
        return plan.roomPrefix() + room;
    }

    /** What the tally reads of one client once it has ended: its rooms, a ledger per room, its cursor of each. */
    interface RoomMember {
        /** The client's rooms, in the order of its cursors. */
        int[] rooms();

        /** The ledger of room {@code room}. */
        DeliveryLedger ledger(int room);

        /** The cursor of the {@code k}-th room when the client ended. */
        long cursor(int k);
    }

    /** The rooms client {@code client} is a member of (distinct, deterministic). */
    public static int[] roomsOf(int client, int rooms, int roomsPerClient) {
        int stride = rooms / roomsPerClient;
        int[] of = new int[roomsPerClient];
        for (int k = 0; k < roomsPerClient; k++) {
            of[k] = (client + k * stride) % rooms;
        }
        return of;
    }

    /**
     * Publishes for the duration while the clients poll, waits for every publish's answer, lets the clients catch up (a
     * drain of up to twice the poll timeout), and returns what they saw.
     */
    public Result run() throws Exception {
        ExecutorService httpThreads = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), daemon("topics-http"));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(5)).build();
        // The publisher is another program than the members (a backend, not a browser): a client of its own, so its
        // answers are not read behind the hundreds of poll answers each batch sets off on the members' client.
        ExecutorService publishThreads = Executors.newSingleThreadExecutor(daemon("topics-publish-http"));
        HttpClient publishClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(publishThreads)
                .connectTimeout(Duration.ofSeconds(5)).build();
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(1, daemon("topics-timer"));
        List<Map<Long, Long>> publishedAtNanos = new ArrayList<>();
        // When the publisher really sent each message, which is what CometD's benchmark measures from (per room, by id).
        List<Map<Long, Long>> sentAtNanos = new ArrayList<>();
        for (int room = 0; room < plan.rooms(); room++) {
            publishedAtNanos.add(new ConcurrentHashMap<>());
            sentAtNanos.add(new ConcurrentHashMap<>());
        }
        AtomicLongArray newestPublished = new AtomicLongArray(plan.rooms());
        AtomicLong publishFailures = new AtomicLong();
        Map<String, AtomicLong> publishFailureKinds = new ConcurrentHashMap<>();
        AtomicLong maxLagNanos = new AtomicLong();
        // From a publish's intended send time to its 200 or ack (the event is in the stream by then), on the clients' threads.
        Recorder publishLatency = new Recorder(3_600_000_000L, 3);
        Counters counters = new Counters();
        AtomicLong publishingEndedAt = new AtomicLong(Long.MAX_VALUE);
        long drainNanos = TimeUnit.SECONDS.toNanos(2L * plan.pollTimeoutSeconds());
        CountDownLatch clientsDone = new CountDownLatch(plan.clients());
        List<RoomMember> members = new ArrayList<>(plan.clients());
        SocketMembers sockets = null;
        List<SocketMember> publishers = new ArrayList<>(); // the sockets' members, who publish in turn with Publishing.SOCKET
        if (plan.transport() == Transport.WS) {
            // Every socket open (or retrying on its own) before the first publish, as the polls are sent before it.
            sockets = new SocketMembers(plan, timers);
            try {
                publishers.addAll(sockets.open(System.nanoTime() + TimeUnit.SECONDS.toNanos(60)));
                members.addAll(publishers);
            } catch (Exception | Error notOpen) {
                try {
                    sockets.close(); // before the timers stop: a member between two sockets ends on the timer's thread
                } catch (Exception alsoStuck) {
                    notOpen.addSuppressed(alsoStuck);
                }
                timers.shutdownNow();
                httpThreads.shutdownNow();
                publishThreads.shutdownNow();
                throw notOpen;
            }
        } else {
            for (int c = 0; c < plan.clients(); c++) {
                Member member = new Member(c, roomsOf(c, plan.rooms(), plan.roomsPerClient()), client, timers, newestPublished,
                        publishingEndedAt, drainNanos, counters, clientsDone);
                members.add(member);
                member.poll();
            }
        }

        ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(daemon("topics-publisher"));
        long start = System.nanoTime();
        long periodNanos = (long) (1e9 * plan.batchSize() / plan.messagesPerSecond());
        AtomicLong batches = new AtomicLong();
        BatchRooms batchRooms = new BatchRooms(plan.rooms(), plan.batchSize()); // the publisher's thread's alone
        Queue<CompletableFuture<Void>> publishAnswers = new ConcurrentLinkedQueue<>();
        // On the HTTP client's threads: a message's id (-1 when it was not published) and what went wrong otherwise.
        PublishAnswer answered = (room, id, failureKind, intended, sent) -> {
            if (id > 0) {
                publishLatency.recordValue(Math.max(0, (System.nanoTime() - intended) / 1_000));
                publishedAtNanos.get(room).put(id, intended);
                sentAtNanos.get(room).put(id, sent);
                newestPublished.accumulateAndGet(room, id, Math::max);
            } else {
                publishFailures.incrementAndGet();
                publishFailureKinds.computeIfAbsent(failureKind, k -> new AtomicLong()).incrementAndGet();
            }
        };
        publisher.scheduleAtFixedRate(() -> {
            long batch = batches.getAndIncrement();
            long intended = start + batch * periodNanos;
            long sent = System.nanoTime();
            maxLagNanos.accumulateAndGet(sent - intended, Math::max);
            URI instance = plan.instances().get((int) (batch % plan.instances().size()));
            int[] rooms = batchRooms.next();
            long first = batch * rooms.length;
            if (plan.publishing() == Publishing.SOCKET) {
                SocketMember from = publishers.get((int) (batch % publishers.size()));
                for (int i = 0; i < rooms.length; i++) {
                    int room = rooms[i];
                    publishAnswers.add(from.publish(topic(room), message(first + i, plan.messageBytes()), PUBLISH_TIMEOUT)
                            .handle((id, failure) -> {
                                answered.accept(room, failure == null ? id : -1, failure == null ? "" : SocketMember.kindOf(failure), intended, sent);
                                return null;
                            }));
                }
            } else if (plan.publishing() == Publishing.BATCH) {
                StringBuilder events = new StringBuilder("[");
                for (int i = 0; i < rooms.length; i++) {
                    events.append(i == 0 ? "" : ",").append("{\"topic\":\"").append(topic(rooms[i])).append("\",\"data\":")
                            .append(message(first + i, plan.messageBytes())).append('}');
                }
                publishAnswers.add(send(publishClient, instance.resolve("/events/batch"), events.append(']').toString())
                        .handle((response, failure) -> {
                            List<Long> ids = failure != null ? Collections.nCopies(rooms.length, -1L)
                                    : idsOf(response.statusCode(), response.body(), rooms.length);
                            String failureKind = kindOf(response, failure);
                            for (int i = 0; i < rooms.length; i++) {
                                answered.accept(rooms[i], ids.get(i), failureKind, intended, sent);
                            }
                            return null;
                        }));
            } else {
                for (int i = 0; i < rooms.length; i++) {
                    int room = rooms[i];
                    publishAnswers.add(send(publishClient, instance.resolve("/events?topic=" + topic(room)), message(first + i, plan.messageBytes()))
                            .handle((response, failure) -> {
                                long id = failure == null && response.statusCode() == 200 ? idOf(response.body()) : -1;
                                answered.accept(room, id, kindOf(response, failure), intended, sent);
                                return null;
                            }));
                }
            }
        }, 0, periodNanos, TimeUnit.NANOSECONDS);

        Thread.sleep(plan.duration().toMillis());
        publisher.shutdown();
        if (!publisher.awaitTermination(10, TimeUnit.SECONDS)) {
            // A publish still being handed to the client would add to publishAnswers after the wait below began.
            throw new IllegalStateException("the publisher's thread did not stop within 10 s: the tool is stuck");
        }
        double publishingSeconds = (System.nanoTime() - start) / 1e9;
        // The drain starts once every publish is answered: a client compares its cursors with the newest ids answered so
        // far, so one that is caught up before a slow publish's answer would stop and count that message late.
        try {
            CompletableFuture.allOf(publishAnswers.toArray(CompletableFuture<?>[]::new))
                    .get(PUBLISH_TIMEOUT.toSeconds() + 5L, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException stuck) {
            throw new IllegalStateException("publishes still unanswered after their own timeout: the tool is stuck", stuck);
        }
        publishingEndedAt.set(System.nanoTime());
        publishThreads.shutdownNow();
        SocketCounts socketCounts = SocketCounts.NONE;
        if (sockets != null) {
            try {
                sockets.drain(newestPublished, System.nanoTime() + drainNanos);
            } finally {
                try {
                    sockets.close(); // before the timers stop: a member between two sockets ends on the timer's thread
                } finally {
                    timers.shutdownNow();
                    httpThreads.shutdownNow();
                }
            }
            socketCounts = sockets.counts();
            counters.missedAnswers.addAndGet(sockets.missed());
        } else {
            boolean drained = clientsDone.await(TimeUnit.NANOSECONDS.toMillis(drainNanos) + TimeUnit.SECONDS.toMillis(plan.pollTimeoutSeconds() + 15L),
                    TimeUnit.MILLISECONDS);
            timers.shutdownNow();
            httpThreads.shutdownNow();
            if (!drained) {
                throw new IllegalStateException(clientsDone.getCount() + " clients still polling long after the drain: the tool is stuck");
            }
        }

        Histogram latency = new Histogram(3_600_000_000L, 3);
        Histogram latencyFromSend = new Histogram(3_600_000_000L, 3);
        long published = 0;
        long expected = 0;
        long deliveries = 0;
        long lost = 0;
        long skipped = 0;
        long duplicated = 0;
        long outOfOrder = 0;
        int[] membersOf = new int[plan.rooms()];
        for (RoomMember member : members) {
            for (int room : member.rooms()) {
                membersOf[room]++;
            }
        }
        for (int room = 0; room < plan.rooms(); room++) {
            published += publishedAtNanos.get(room).size();
            expected += (long) publishedAtNanos.get(room).size() * membersOf[room];
        }
        for (RoomMember member : members) {
            int[] rooms = member.rooms();
            for (int k = 0; k < rooms.length; k++) {
                Map<Long, Long> sent = publishedAtNanos.get(rooms[k]);
                Map<Long, Long> reallySent = sentAtNanos.get(rooms[k]);
                DeliveryLedger ledger = member.ledger(rooms[k]);
                for (Map.Entry<Long, Long> message : sent.entrySet()) {
                    long sentAt = message.getValue();
                    OptionalLong read = ledger.receivedAt(message.getKey());
                    if (read.isPresent()) {
                        latency.recordValue(Math.max(0, (read.getAsLong() - sentAt) / 1_000));
                        latencyFromSend.recordValue(Math.max(0, (read.getAsLong() - reallySent.get(message.getKey())) / 1_000));
                        deliveries++; // of a publish answered with its id: one whose answer was lost is not expected either
                    }
                }
                lost += ledger.lost(sent.keySet());
                skipped += ledger.skipped(sent.keySet(), member.cursor(k)); // read after the client ended (its latch)
                duplicated += ledger.duplicated();
                outOfOrder += ledger.outOfOrder();
            }
        }
        Map<String, Long> failureKinds = new TreeMap<>();
        publishFailureKinds.forEach((kind, count) -> failureKinds.put(kind, count.get()));
        return new Result(plan.transport(), plan.instances().size(), published, publishFailures.get(), failureKinds, expected, deliveries, lost, skipped, duplicated, outOfOrder,
                counters.missedAnswers.get(), counters.polls.get(), counters.timedOutPolls.get(), counters.refusedPolls.get(), counters.failedPolls.get(),
                socketCounts, maxLagNanos.get() / 1e6, publishLatency.getIntervalHistogram(), latency, latencyFromSend, publishingSeconds);
    }

    /** Counts shared by every client's poll chain. */
    private static final class Counters {
        final AtomicLong polls = new AtomicLong();
        final AtomicLong missedAnswers = new AtomicLong();
        final AtomicLong refusedPolls = new AtomicLong();
        final AtomicLong timedOutPolls = new AtomicLong();
        final AtomicLong failedPolls = new AtomicLong();
    }

    /** One client: its rooms, cursors and ledgers, and its chain of polls (one in flight at a time). */
    private final class Member implements RoomMember {
        private final int index;
        private final int[] rooms;
        private final Map<Integer, DeliveryLedger> ledgers = new LinkedHashMap<>();
        private final Map<String, Integer> roomOfTopic = new LinkedHashMap<>();
        private final long[] cursors;
        private final HttpClient client;
        private final ScheduledExecutorService timers;
        private final AtomicLongArray newestPublished;
        private final AtomicLong publishingEndedAt;
        private final long drainNanos;
        private final Counters counters;
        private final CountDownLatch done;

        Member(int index, int[] rooms, HttpClient client, ScheduledExecutorService timers, AtomicLongArray newestPublished,
               AtomicLong publishingEndedAt, long drainNanos, Counters counters, CountDownLatch done) {
            this.index = index;
            this.rooms = rooms;
            this.cursors = new long[rooms.length];
            for (int room : rooms) {
                ledgers.put(room, new DeliveryLedger(0));
                roomOfTopic.put(topic(room), room);
            }
            this.client = client;
            this.timers = timers;
            this.newestPublished = newestPublished;
            this.publishingEndedAt = publishingEndedAt;
            this.drainNanos = drainNanos;
            this.counters = counters;
            this.done = done;
        }

        @Override
        public int[] rooms() {
            return rooms;
        }

        @Override
        public DeliveryLedger ledger(int room) {
            return ledgers.get(room);
        }

        @Override
        public long cursor(int k) {
            return cursors[k];
        }

        /** Sends the next poll, or ends the chain once publishing has ended and this client is caught up or out of time. */
        void poll() {
            long endedAt = publishingEndedAt.get();
            if (endedAt != Long.MAX_VALUE && (caughtUp() || System.nanoTime() - endedAt > drainNanos)) {
                done.countDown();
                return;
            }
            StringBuilder query = new StringBuilder("/events?timeout=").append(plan.pollTimeoutSeconds());
            for (int k = 0; k < rooms.length; k++) {
                query.append("&topic=").append(topic(rooms[k])).append(':').append(cursors[k]);
            }
            URI instance = plan.instances().get(index % plan.instances().size());
            HttpRequest request = HttpRequest.newBuilder(instance.resolve(query.toString()))
                    .timeout(Duration.ofSeconds(plan.pollTimeoutSeconds() + 10L)).GET().build();
            counters.polls.incrementAndGet();
            CompletableFuture<HttpResponse<String>> answer = client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            answer.whenComplete((response, failure) -> {
                long receivedAt = System.nanoTime();
                boolean again;
                try {
                    again = failure == null && record(response, receivedAt);
                } catch (RuntimeException unreadable) {
                    counters.failedPolls.incrementAndGet();
                    again = false;
                }
                if (failure != null) {
                    counters.failedPolls.incrementAndGet();
                }
                if (again) {
                    poll();
                } else {
                    timers.schedule(this::poll, RETRY_MS, TimeUnit.MILLISECONDS);
                }
            });
        }

        /** Records an answer; true to poll again at once, false to wait a little first (refused or failed). */
        private boolean record(HttpResponse<String> response, long receivedAt) {
            if (response.statusCode() == 503 || response.statusCode() == 429) {
                counters.refusedPolls.incrementAndGet();
                return false;
            }
            if (response.statusCode() == 204) {
                counters.timedOutPolls.incrementAndGet(); // nothing new within the poll's timeout: poll again
                return true;
            }
            if (response.statusCode() != 200) {
                counters.failedPolls.incrementAndGet();
                return false;
            }
            JsonNode body;
            try {
                body = JSON.readTree(response.body());
            } catch (IOException e) {
                counters.failedPolls.incrementAndGet();
                return false;
            }
            if (body.path("missed").asBoolean()) {
                counters.missedAnswers.incrementAndGet();
            }
            for (JsonNode event : body.path("events")) {
                Integer room = roomOfTopic.get(event.path("topic").asText());
                if (room != null) {
                    ledgers.get(room).receive(event.path("id").asLong(), receivedAt);
                }
            }
            JsonNode answered = body.path("cursors");
            for (int k = 0; k < rooms.length; k++) {
                long cursor = answered.isObject() ? answered.path(topic(rooms[k])).asLong(cursors[k]) : body.path("lastId").asLong(cursors[k]);
                cursors[k] = Math.max(cursors[k], cursor);
            }
            return true;
        }

        private boolean caughtUp() {
            for (int k = 0; k < rooms.length; k++) {
                if (cursors[k] < newestPublished.get(rooms[k])) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Message {@code n} as JSON of {@code bytes} bytes (or the shortest it can be): {@code {"n":<n>,"p":"xx…"}}. */
    public static String message(long n, int bytes) {
        String bare = "{\"n\":" + n + ",\"p\":\"\"}";
        return "{\"n\":" + n + ",\"p\":\"" + "x".repeat(Math.max(0, bytes - bare.length())) + "\"}";
    }

    /** What the publisher does with each message's answer. */
    @FunctionalInterface
    private interface PublishAnswer {
        void accept(int room, long id, String failureKind, long intendedNanos, long sentNanos);
    }

    private static CompletableFuture<HttpResponse<String>> send(HttpClient client, URI uri, String json) {
        HttpRequest post = HttpRequest.newBuilder(uri).timeout(PUBLISH_TIMEOUT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return client.sendAsync(post, HttpResponse.BodyHandlers.ofString());
    }

    /** How a publish that gave no id went wrong: the exception's class, or the HTTP status. */
    private static String kindOf(HttpResponse<String> response, Throwable failure) {
        return failure != null ? failure.getClass().getSimpleName() : "HTTP " + response.statusCode();
    }

    /**
     * The ids of a batch's {@code count} messages from its answer ({@code status}, {@code body}), -1 for each one not
     * published: {@code 200} {@code {"events":[…]}}, or {@code 503} with {@code null} for each event the stream did not take.
     */
    static List<Long> idsOf(int status, String body, int count) {
        JsonNode events = JSON.missingNode();
        if (status == 200 || status == 503) {
            try {
                events = JSON.readTree(body).path("events");
            } catch (IOException notJson) {
                // no ids: every message counts as not published
            }
        }
        List<Long> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(events.size() == count ? events.get(i).path("id").asLong(-1) : -1L);
        }
        return ids;
    }

    /** The {@code id} of a publish's answer ({@code {"id":…}}); -1 when the body has none. */
    public static long idOf(String body) {
        try {
            return JSON.readTree(body).path("id").asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicLong count = new AtomicLong();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
