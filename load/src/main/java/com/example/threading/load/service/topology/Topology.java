package com.example.threading.load.service.topology;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compose topology run without Docker: each service of the compose file on a host of its own ({@link Network}),
 * running what its image would run. Three kinds of service are understood: {@code redis} images (Debian's
 * {@code redis-server} with the service's command), {@code haproxy} images (Debian's {@code haproxy} with the file the
 * service mounts as its configuration) and services built from the repository's Dockerfile (a container of the image
 * {@code deploy/image/build} built from it, {@link Container}, with the service's environment on top of the image's).
 * Anything else is refused.
 *
 * <p>Faults act on the hosts behind the balancer: an instance killed with SIGKILL and started again, an instance cut
 * off from Redis (a blackhole route on its host), a degraded link ({@link LinkFault}), Redis stopped and started.
 *
 * <p>Not thread-safe: it is started, faulted and closed on the scenario's thread; only the read-only accessors may be
 * called from any thread. {@link #close} is idempotent, and the network's shutdown hook kills and removes everything
 * should the tool exit first.
 */
public final class Topology implements AutoCloseable {

    /** Where the deployment's parts come from here, and what the shell that runs {@code docker compose} would hold. */
    public record Sources(Path compose, ContainerImage image, Map<String, String> variables, Map<String, String> extraInstanceEnvironment) {
    }

    private static final String HAPROXY_CONFIG_IN_IMAGE = "/usr/local/etc/haproxy/haproxy.cfg";
    private static final int REDIS_PORT = 6379;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Sources sources;
    private final ComposeFile compose;
    private final ContainerImage image;
    private final Network network;
    private final Path workDirectory;
    private final ComposeFile.Service redis;
    private final ComposeFile.Service balancer;
    private final List<ComposeFile.Service> instances;
    private final Map<String, Program> running = new LinkedHashMap<>();
    private int containerStarts;
    private final List<String> leftoversRemoved;
    private final Path statsSocket;
    private final boolean netem;
    private boolean closed;

    private Topology(Sources sources, ComposeFile compose, ContainerImage image, Network network, Path workDirectory,
                     List<String> leftoversRemoved) throws IOException {
        this.sources = sources;
        this.compose = compose;
        this.image = image;
        this.network = network;
        this.workDirectory = workDirectory;
        this.leftoversRemoved = List.copyOf(leftoversRemoved);
        ComposeFile.Service foundRedis = null;
        ComposeFile.Service foundBalancer = null;
        List<ComposeFile.Service> foundInstances = new ArrayList<>();
        for (ComposeFile.Service service : compose.services()) {
            String imageName = service.image().map(Topology::imageName).orElse("");
            if (service.buildContext().isPresent()) {
                foundInstances.add(service);
            } else if (imageName.equals("redis") && foundRedis == null) {
                foundRedis = service;
            } else if (imageName.equals("haproxy") && foundBalancer == null) {
                foundBalancer = service;
            } else {
                throw new IOException(compose.file() + ": service " + service.name() + " (" + service.image().orElse("no image")
                        + ") is none of what a topology runs: one redis image, one haproxy image, services built from the Dockerfile");
            }
        }
        if (foundRedis == null || foundBalancer == null || foundInstances.isEmpty()) {
            throw new IOException(compose.file() + ": a topology needs a redis service, a haproxy service and at least one built service");
        }
        this.redis = foundRedis;
        this.balancer = foundBalancer;
        this.instances = List.copyOf(foundInstances);
        this.statsSocket = network.scratch().resolve("haproxy.sock");
        this.netem = probeNetem(network, network.host(instances.get(0).name()));
    }

    /**
     * Builds the network and starts every service in dependency order (Redis, the instances, the balancer), each waited
     * for: Redis listening, each instance ready ({@code /ready} 200), the balancer with every instance in rotation. Logs,
     * Redis's data and the balancer's extra configuration go to {@code workDirectory}.
     */
    public static Topology start(Sources sources, Path workDirectory) throws IOException, InterruptedException {
        ComposeFile compose = ComposeFile.read(sources.compose(), sources.variables());
        ContainerImage image = sources.image();
        List<String> leftovers = Network.removeLeftovers();
        Files.createDirectories(workDirectory);
        Network network = Network.create(compose.services().stream().map(ComposeFile.Service::name).toList());
        Topology topology = null;
        try {
            topology = new Topology(sources, compose, image, network, workDirectory, leftovers);
            topology.startRedis();
            for (ComposeFile.Service instance : topology.instances) {
                topology.startInstance(instance.name());
            }
            for (ComposeFile.Service instance : topology.instances) {
                topology.awaitReady(instance.name(), START_TIMEOUT);
            }
            topology.startBalancer();
            return topology;
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (topology != null) {
                topology.close();
            } else {
                network.close();
            }
            throw e;
        }
    }

    /** The balancer's published port on its host, e.g. http://10.213.7.13:8080. */
    public URI balancerUri() {
        String port = balancer.ports().isEmpty() ? "80" : containerPort(balancer.ports().get(0));
        return URI.create("http://" + network.host(balancer.name()).address() + ":" + port);
    }

    /** The instances' names (compose services built from the Dockerfile), in the file's order. */
    public List<String> instances() {
        return instances.stream().map(ComposeFile.Service::name).toList();
    }

    /** An instance's application port on its host, e.g. http://10.213.7.11:8080. */
    public URI instanceUri(String instance) {
        return URI.create("http://" + network.host(instance).address() + ":" + instanceEnvironment(service(instance)).getOrDefault("APP_PORT", "8080"));
    }

    /** An instance's admin port on its host's address (unreachable there when the admin connector is bound to loopback). */
    public URI instanceAdminUri(String instance) {
        return URI.create("http://" + network.host(instance).address() + ":" + instanceEnvironment(service(instance)).getOrDefault("ADMIN_PORT", "8081"));
    }

    /** The balancer's stats socket (added by this tool: not in the shipped configuration). */
    public Path statsSocket() {
        return statsSocket;
    }

    /** The balancer's configuration file, as the compose file mounts it. */
    public Path balancerConfig() {
        return compose.file().toAbsolutePath().getParent().resolve(balancerConfigSource()).normalize();
    }

    /** The network (its hosts, prefix, what remains of it). */
    public Network network() {
        return network;
    }

    /** What earlier, killed runs had left and this one removed before it started. */
    public List<String> leftoversRemoved() {
        return leftoversRemoved;
    }

    /** The log of the program running as {@code service}. */
    public Path log(String service) {
        return workDirectory.resolve(service + ".log");
    }

    /** Whether the kernel has {@code tc netem} (else a link fault can only drop packets, with nftables). */
    public boolean hasNetem() {
        return netem;
    }

    /** What a report must say about how the topology was run. */
    public Map<String, String> facts() throws IOException {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("compose file", sources.compose().toAbsolutePath().normalize().toString());
        facts.put("instances run", "the image built from the Dockerfile by deploy/image/build (its base images stand-ins of Debian's "
                + "packages), unpacked in " + image.rootfs().getParent() + ", each instance a container of it run by "
                + firstLine(Commands.run(List.of("runc", "--version"))) + " in its host's namespace");
        facts.put("Redis", firstLine(Commands.run(List.of("redis-server", "--version"))) + " (Debian; the compose file names " + redis.image().orElse("?") + ")");
        facts.put("HAProxy", firstLine(Commands.run(List.of("haproxy", "-v"))) + " (Debian; the compose file names " + balancer.image().orElse("?") + ")");
        facts.put("network", "bridge " + network.prefix() + "br " + network.gateway() + "/24; hosts " + hostList());
        facts.put("link faults", netem ? "tc netem" : "no netem in this kernel: packet loss with nftables, no delay");
        return facts;
    }

    /** Starts {@code instance} as its container would start (also again, after {@link #kill}); returns at once. */
    public void startInstance(String instance) throws IOException {
        ComposeFile.Service service = service(instance);
        Map<String, String> environment = instanceEnvironment(service);
        Program previous = running.get(instance);
        if (previous instanceof Container ended) {
            ended.close(); // a killed instance's container leaves runc's state: remove it before its successor starts
        }
        String id = network.prefix() + "-" + instance + "-" + (++containerStarts);
        running.put(instance, Container.run(image, id, network.host(instance), environment, service.nofile(),
                workDirectory.resolve("containers").resolve(id), log(instance)));
    }

    /** SIGKILL to the program of {@code service} (an instance, or Redis): the crash a deployment must survive. */
    public void kill(String service) {
        Program process = running.get(service);
        if (process != null) {
            process.kill();
        }
    }

    /** Waits until {@code instance} answers {@code /ready} with 200; fails when its program ends or the time is up. */
    public void awaitReady(String instance, Duration timeout) throws IOException, InterruptedException {
        URI ready = instanceUri(instance).resolve("/ready");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Program process = running.get(instance);
            if (process == null || !process.isAlive()) {
                throw new IOException(instance + " is not running" + (process == null ? "" : " (exit " + process.exitValue() + "); its log:\n" + process.tail(40)));
            }
            try {
                if (client.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(instance + " not ready at " + ready + " within " + timeout.toSeconds() + " s; its log:\n" + process.tail(40));
            }
            Thread.sleep(100);
        }
    }

    /** Cuts {@code instance} off from Redis: a blackhole route to Redis's address on the instance's host. */
    public void cutFromRedis(String instance) throws IOException {
        network.run(network.host(instance), "ip", "route", "add", "blackhole", network.host(redis.name()).address() + "/32");
    }

    /** Removes the blackhole route of {@link #cutFromRedis}. */
    public void reconnectToRedis(String instance) throws IOException {
        network.run(network.host(instance), "ip", "route", "del", "blackhole", network.host(redis.name()).address() + "/32");
    }

    /**
     * Degrades the link of {@code instance}'s host (both directions: to the balancer and to Redis). Returns what was
     * applied: with netem all of {@code fault}; without, only the loss (nftables), and the delay is left out.
     */
    public String degradeLink(String instance, LinkFault fault) throws IOException {
        Network.Host host = network.host(instance);
        if (netem) {
            List<String> netemArguments = new ArrayList<>(List.of("root", "netem"));
            if (fault.delays()) {
                netemArguments.addAll(List.of("delay", fault.delay().toMillis() + "ms", fault.jitter().toMillis() + "ms"));
            }
            if (fault.lossPercent() > 0) {
                netemArguments.addAll(List.of("loss", fault.lossPercent() + "%"));
            }
            List<String> inside = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", "eth0"));
            inside.addAll(netemArguments);
            network.run(host, inside.toArray(String[]::new));
            List<String> outside = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", host.hostDevice()));
            outside.addAll(netemArguments);
            Commands.run(outside);
            return "tc netem " + fault.describe() + " on both ends of " + instance + "'s link";
        }
        if (fault.lossPercent() <= 0) {
            return "nothing: this kernel has no netem, so a delay cannot be applied";
        }
        long perTenThousand = Math.round(fault.lossPercent() * 100);
        network.run(host, "nft", "add", "table", "inet", "tpfault");
        for (String[] chain : new String[][] {{"in", "input"}, {"out", "output"}}) {
            network.run(host, "nft", "add", "chain", "inet", "tpfault", chain[0], "{", "type", "filter", "hook", chain[1],
                    "priority", "0", ";", "policy", "accept", ";", "}");
            network.run(host, "nft", "add", "rule", "inet", "tpfault", chain[0], "numgen", "random", "mod", "10000", "<",
                    Long.toString(perTenThousand), "drop");
        }
        return "nftables: " + fault.lossPercent() + " % of packets dropped each way on " + instance
                + "'s host" + (fault.delays() ? " (no delay: this kernel has no netem)" : "");
    }

    /** Undoes {@link #degradeLink}. */
    public void restoreLink(String instance) throws IOException {
        Network.Host host = network.host(instance);
        if (netem) {
            network.run(host, "tc", "qdisc", "del", "dev", "eth0", "root");
            Commands.run(List.of("tc", "qdisc", "del", "dev", host.hostDevice(), "root"));
        } else {
            Commands.attempt(network.inside(host, List.of("nft", "delete", "table", "inet", "tpfault")));
        }
    }

    /** Stops Redis as a restart would (SIGTERM: it writes its AOF and exits). */
    public void stopRedis() {
        Program process = running.get(redis.name());
        if (process != null) {
            process.stop();
        }
    }

    /** Starts Redis again with the same data folder (its AOF is read back) and waits until it listens. */
    public void startRedis() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(redis.command().isEmpty() ? List.of("redis-server") : redis.command());
        if (!command.get(0).equals("redis-server")) {
            throw new IOException(compose.file() + ": the redis service's command must start with redis-server: " + command);
        }
        Path data = workDirectory.resolve("redis-data");
        Files.createDirectories(data);
        // The image's default configuration: protected mode off (other hosts may connect), data in its volume /data.
        command.addAll(List.of("--protected-mode", "no", "--dir", data.toAbsolutePath().toString(), "--port", Integer.toString(REDIS_PORT)));
        running.put(redis.name(), HostProcess.start(network, network.host(redis.name()), command, Map.of(), redis.nofile(), log(redis.name())));
        awaitRedis();
    }

    /** The name of the balancer's service. */
    public String balancerService() {
        return balancer.name();
    }

    /** The name of the Redis service. */
    public String redisService() {
        return redis.name();
    }

    /** Stops everything (the balancer, the instances, Redis) and removes the network. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<String> order = new ArrayList<>(List.of(balancer.name()));
        order.addAll(instances());
        order.add(redis.name());
        for (String service : order) {
            Program process = running.get(service);
            if (process != null) {
                process.stop();
            }
            if (process instanceof Container container) {
                container.close(); // out of runc's state too
            }
        }
        network.close();
    }

    private void awaitRedis() throws IOException, InterruptedException {
        awaitPort(redis.name(), network.host(redis.name()).address(), REDIS_PORT);
    }

    private void startBalancer() throws IOException, InterruptedException {
        String mounted = balancer.volumes().stream().filter(v -> v.split(":").length >= 2 && v.split(":")[1].equals(HAPROXY_CONFIG_IN_IMAGE))
                .findFirst().orElseThrow(() -> new IOException(compose.file() + ": " + balancer.name() + " mounts no " + HAPROXY_CONFIG_IN_IMAGE));
        Path extra = workDirectory.resolve("haproxy-stats.cfg");
        Files.writeString(extra, "# Added by the topology scenario, not part of deploy/: the socket it reads the servers' state from.\n"
                + "global\n    stats socket " + statsSocket + " mode 600 level operator\n");
        List<String> command = List.of("haproxy", "-db", "-f", balancerConfig().toString(), "-f", extra.toString());
        running.put(balancer.name(), HostProcess.start(network, network.host(balancer.name()), command, Map.of(), balancer.nofile(), log(balancer.name())));
        Program process = running.get(balancer.name());
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("haproxy exited with " + process.exitValue() + " (" + mounted + "); its log:\n" + process.tail(20));
            }
            try {
                List<HaproxyStats.ServerState> servers = HaproxyStats.read(statsSocket);
                if (servers.size() >= instances.size() && servers.stream().allMatch(HaproxyStats.ServerState::checkedUp)) {
                    return;
                }
            } catch (IOException notYet) {
                // The socket appears once HAProxy has parsed its configuration.
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("haproxy did not have every instance in rotation within " + START_TIMEOUT.toSeconds() + " s; its log:\n" + process.tail(20));
            }
            Thread.sleep(100);
        }
    }

    private String balancerConfigSource() {
        return balancer.volumes().stream().map(v -> v.split(":")).filter(parts -> parts.length >= 2 && parts[1].equals(HAPROXY_CONFIG_IN_IMAGE))
                .map(parts -> parts[0]).findFirst().orElseThrow(() -> new IllegalStateException(balancer.name() + " mounts no " + HAPROXY_CONFIG_IN_IMAGE));
    }

    private void awaitPort(String service, String address, int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            Program process = running.get(service);
            if (process != null && !process.isAlive()) {
                throw new IOException(service + " exited with " + process.exitValue() + "; its log:\n" + process.tail(20));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address, port), 1000);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IOException(service + " did not listen on " + address + ":" + port + " within " + START_TIMEOUT.toSeconds() + " s");
                }
                Thread.sleep(100);
            }
        }
    }

    /** What the compose file (and the caller) add to the image's own environment, as {@code environment:} does. */
    private Map<String, String> instanceEnvironment(ComposeFile.Service service) {
        Map<String, String> environment = new LinkedHashMap<>(service.environment());
        environment.putAll(sources.extraInstanceEnvironment());
        return environment;
    }

    private ComposeFile.Service service(String name) {
        return instances.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no instance " + name + " in " + instances()));
    }

    private String hostList() {
        StringBuilder list = new StringBuilder();
        for (Network.Host host : network.hosts()) {
            list.append(list.length() == 0 ? "" : ", ").append(host.name()).append(' ').append(host.address());
        }
        return list.toString();
    }

    private static boolean probeNetem(Network network, Network.Host host) {
        try {
            Commands.Result added = Commands.attempt(network.inside(host, List.of("tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms")));
            if (added.exitCode() != 0) {
                return false;
            }
            Commands.attempt(network.inside(host, List.of("tc", "qdisc", "del", "dev", "lo", "root")));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** "redis" of "redis:7.0", "docker.io/library/redis:7.0@sha256:…". */
    static String imageName(String image) {
        String withoutDigest = image.split("@")[0];
        String path = withoutDigest.substring(withoutDigest.lastIndexOf('/') + 1);
        return path.split(":")[0];
    }

    /** The container port of a compose port mapping ("127.0.0.1:8080:8080", "8080:80/tcp", "80"). */
    static String containerPort(String mapping) {
        String[] parts = mapping.split(":");
        return parts[parts.length - 1].split("/")[0];
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("").trim();
    }
}
