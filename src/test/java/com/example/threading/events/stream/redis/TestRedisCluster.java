package com.example.threading.events.stream.redis;

import com.example.threading.testing.Await;
import com.example.threading.testing.Prerequisites;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real Redis Cluster for the tests: three {@code redis-server} processes (Redis 7 from the PATH: sharded pub/sub) in
 * cluster mode on 127.0.0.1 and free ports, AOF on, each with its data and {@code nodes.conf} in a temporary
 * directory; the test assigns the slots (master 0: 0–5460, 1: 5461–10922, 2: 10923–16383), introduces the nodes to
 * each other ({@code CLUSTER MEET}) and waits for {@code cluster_state:ok}. No Redis 7 on the PATH: fails under
 * {@code CI=true}, skipped elsewhere, naming {@code apt-get install -y redis-server}. {@link #stop} and {@link #start}
 * one master keep its port and data (it rejoins from its {@code nodes.conf}); {@link #close} stops every process it
 * started, by its own handle (also from a shutdown hook if the JVM is interrupted), and deletes the data.
 *
 * <p>Thread-safety: for the test thread only (the shutdown hook only destroys processes).
 */
final class TestRedisCluster implements AutoCloseable {

    /** The first slot of each master; the last master ends at 16383. */
    private static final int[] FIRST_SLOTS = {0, 5461, 10923};
    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.");

    private final Path dir;
    private final int[] ports = new int[FIRST_SLOTS.length];
    private final Process[] processes = new Process[FIRST_SLOTS.length];
    private final Thread cleanup = new Thread(this::destroyAll, "test-redis-cluster-cleanup");

    private TestRedisCluster(Path dir) {
        this.dir = dir;
    }

    /** Starts the cluster; when no Redis 7 can run here, fails the test under CI and skips it elsewhere. */
    static TestRedisCluster startOrSkip() {
        String version = redisServerVersion();
        Matcher major = VERSION.matcher(version);
        if (!major.find() || Integer.parseInt(major.group(1)) < 7) {
            throw Prerequisites.unavailable("the Redis Cluster tests need redis-server 7 or newer on the PATH (sharded "
                    + "pub/sub), found: " + version, "apt-get install -y redis-server");
        }
        TestRedisCluster cluster;
        try {
            cluster = new TestRedisCluster(Files.createTempDirectory("test-redis-cluster-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(cluster.cleanup);
        try {
            for (int i = 0; i < FIRST_SLOTS.length; i++) {
                cluster.ports[i] = freePort();
                cluster.start(i);
            }
            cluster.formCluster();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private static String redisServerVersion() {
        try {
            Process process = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(10, TimeUnit.SECONDS);
            return output.trim();
        } catch (IOException e) {
            return "no redis-server on the PATH (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The seed list of the service's {@code events.stream.redis.uri}: every node. */
    String uris() {
        StringBuilder uris = new StringBuilder();
        for (int port : ports) {
            uris.append(uris.length() == 0 ? "" : ",").append("redis://127.0.0.1:").append(port);
        }
        return uris.toString();
    }

    /** The port of master {@code index}. */
    int port(int index) {
        return ports[index];
    }

    /** The first name {@code <base>-<n>} whose keys ({@code <key>:{<name>}}) live on master {@code index}. */
    static String topicOn(int index, String key, String base) {
        for (int n = 0; ; n++) {
            String topic = base + "-" + n;
            if (masterOf(key, topic) == index) {
                return topic;
            }
        }
    }

    /** The master that holds {@code topic}'s keys under prefix {@code key}. */
    static int masterOf(String key, String topic) {
        int slot = SlotHash.getSlot(new TopicKeys(key).stream(topic));
        int master = 0;
        while (master + 1 < FIRST_SLOTS.length && slot >= FIRST_SLOTS[master + 1]) {
            master++;
        }
        return master;
    }

    /** Stops master {@code index} (SIGTERM: it writes its AOF) and waits for the process to end. */
    void stop(int index) {
        Process process = processes[index];
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts master {@code index} (again) on its port and data, and waits until it answers. */
    void start(int index) {
        Path nodeDir = dir.resolve("node-" + index);
        try {
            Files.createDirectories(nodeDir);
            processes[index] = new ProcessBuilder("redis-server", "--port", Integer.toString(ports[index]),
                    "--bind", "127.0.0.1", "--dir", nodeDir.toString(), "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000",
                    "--cluster-require-full-coverage", "no", "--appendonly", "yes", "--save", "")
                    .redirectErrorStream(true)
                    .redirectOutput(nodeDir.resolve("redis.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Await.until(() -> answers(index), Duration.ofSeconds(20), "redis-server on port " + ports[index] + " answers PING");
    }

    /** Waits until every running master says {@code cluster_state:ok}. */
    void awaitClusterOk() {
        for (int i = 0; i < ports.length; i++) {
            int index = i;
            Await.until(() -> clusterInfo(index).contains("cluster_state:ok"), Duration.ofSeconds(30),
                    "cluster_state:ok on port " + ports[index]);
        }
    }

    /** Runs {@code action} on a plain (non-cluster) connection to master {@code index} and returns its result. */
    <T> T on(int index, Function<RedisCommands<String, String>, T> action) {
        RedisURI uri = RedisURI.create("redis://127.0.0.1:" + ports[index]);
        uri.setTimeout(Duration.ofSeconds(5));
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return action.apply(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    private void formCluster() {
        for (int i = 0; i < ports.length; i++) {
            int last = i + 1 < FIRST_SLOTS.length ? FIRST_SLOTS[i + 1] - 1 : SlotHash.SLOT_COUNT - 1;
            int first = FIRST_SLOTS[i];
            on(i, redis -> redis.clusterAddSlotsRange(Range.create(first, last)));
        }
        for (int i = 1; i < ports.length; i++) {
            int port = ports[i];
            on(0, redis -> redis.clusterMeet("127.0.0.1", port));
        }
        awaitClusterOk();
    }

    private boolean answers(int index) {
        try {
            return "PONG".equals(on(index, RedisCommands::ping));
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private String clusterInfo(int index) {
        try {
            return on(index, RedisCommands::clusterInfo);
        } catch (RuntimeException notYet) {
            return notYet.toString();
        }
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException ignored) {
            // a temporary directory: the OS cleans it up eventually
        }
    }

    private void destroyAll() {
        for (Process process : processes) {
            if (process != null && process.isAlive()) {
                process.destroy();
            }
        }
        for (Process process : processes) {
            try {
                if (process != null && !process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** For messages: the ports, in master order. */
    @Override
    public String toString() {
        return "Redis Cluster on ports " + Arrays.stream(ports).mapToObj(Integer::toString).collect(Collectors.joining(", "));
    }
}
