package com.example.threading.load.service;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of masters only for a scenario's instances: {@code masters} {@code redis-server} processes from the
 * PATH in cluster mode on free loopback ports (no persistence), joined and given all 16,384 slots by
 * {@code redis-cli --cluster create}, stopped by their PIDs on {@link #close()} (and by shutdown hooks should the tool
 * be killed). Needs Redis 7 (the service announces events with {@code SPUBLISH}).
 */
public final class RedisClusterProcesses implements AutoCloseable {

    private final List<RedisServerProcess> nodes;
    private final String version;

    private RedisClusterProcesses(List<RedisServerProcess> nodes, String version) {
        this.nodes = List.copyOf(nodes);
        this.version = version;
    }

    /** Starts {@code masters} nodes, their logs and files under {@code directory}, and waits for {@code cluster_state:ok}. */
    public static RedisClusterProcesses start(Path directory, int masters) throws IOException, InterruptedException {
        if (masters < 3) {
            throw new IllegalArgumentException("redis-cli --cluster create needs at least 3 masters, not " + masters);
        }
        List<RedisServerProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                nodes.add(RedisServerProcess.start(directory.resolve("node-" + (i + 1)),
                        List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-require-full-coverage", "no")));
            }
            String version = nodes.get(0).version();
            if (!version.matches("(?s).*\\bv=([7-9]|[1-9][0-9])\\..*")) {
                throw new IOException("the Redis Cluster phase needs Redis 7 or newer (SPUBLISH), redis-server on the PATH is: " + version);
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            nodes.forEach(node -> create.add("127.0.0.1:" + port(node)));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            run(create, directory.resolve("cluster-create.log"));
            for (RedisServerProcess node : nodes) {
                awaitClusterOk(node, directory);
            }
            return new RedisClusterProcesses(nodes, version);
        } catch (IOException | InterruptedException | RuntimeException e) {
            nodes.forEach(RedisServerProcess::close);
            throw e;
        }
    }

    /** The service's {@code EVENTS_REDIS_URI} for the cluster: every node, comma-separated. */
    public String uri() {
        return nodes.stream().map(RedisServerProcess::uri).collect(Collectors.joining(","));
    }

    /** What {@code redis-server --version} said, and the number of masters, for the report. */
    public String version() {
        return version + ", a cluster of " + nodes.size() + " masters";
    }

    /** Stops every node (SIGTERM, then SIGKILL after 10 s). */
    @Override
    public void close() {
        nodes.forEach(RedisServerProcess::close);
    }

    private static int port(RedisServerProcess node) {
        return URI.create(node.uri()).getPort();
    }

    /** Waits up to 30 s until {@code node} says {@code cluster_state:ok} (every node must know the slots' owners). */
    private static void awaitClusterOk(RedisServerProcess node, Path directory) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String info = "";
        while (System.nanoTime() < deadline) {
            info = run(List.of("redis-cli", "-p", Integer.toString(port(node)), "cluster", "info"), directory.resolve("cluster-info.log"));
            if (info.contains("cluster_state:ok")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("Redis node " + node.uri() + " did not reach cluster_state:ok within 30 s: " + info.strip());
    }

    /** Runs a {@code redis-cli} command (bounded to 30 s), its output also in {@code log}; fails with what it said. */
    private static String run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException notInstalled) {
            throw new IOException("redis-cli is not on the PATH (apt-get install -y redis-tools)", notInstalled);
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end within 30 s");
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output.strip());
        }
        return output;
    }
}
