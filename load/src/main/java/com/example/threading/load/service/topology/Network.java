package com.example.threading.load.service.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The private network of a topology, as Docker builds one for a compose project: a bridge, and per host a network
 * namespace joined to it by a veth pair ({@code eth0} inside), with its own {@code /etc/hosts}
 * ({@code /etc/netns/<namespace>/hosts}, which {@code ip netns exec} mounts over {@code /etc/hosts}) naming every host.
 * The namespaces have no route beyond the bridge. The bridge's own address (the "gateway") lets this tool reach the
 * hosts, as Docker's host reaches its containers.
 *
 * <p>Every name starts with {@code tp<pid of this tool>}, so what a killed run left behind is recognised and removed
 * by the next run ({@link #removeLeftovers}); {@link #close} removes this run's namespaces (killing what still runs in
 * them), their {@code /etc/netns} folders, the veths and the bridge, and a shutdown hook does the same should the tool
 * exit first (Ctrl-C, the watchdog).
 *
 * <p>Thread-safety: created and closed on the scenario's thread; {@link #close} is idempotent and synchronized, as the
 * shutdown hook may call it concurrently. The accessors read immutable state.
 */
public final class Network implements AutoCloseable {

    /** One host: its compose name, namespace, address on the bridge, and the veth end on this tool's side. */
    public record Host(String name, String namespace, String address, String hostDevice) {
    }

    private static final String FAMILY = "tp";
    private static final Pattern RUN_NAME = Pattern.compile("^" + FAMILY + "(\\d+)(-.+|br|h\\d+)$");
    private static final Path NETNS_ETC = Path.of("/etc/netns");
    private static final Path SCRATCH_PARENT = Path.of(System.getProperty("java.io.tmpdir"));
    private static final int FIRST_HOST = 10;

    private final String prefix;
    private final String bridge;
    private final String gateway;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Path scratch;
    private final Thread shutdownHook;
    private boolean closed;

    private Network(String prefix, String gateway) {
        this.prefix = prefix;
        this.bridge = prefix + "br";
        this.gateway = gateway;
        this.scratch = SCRATCH_PARENT.resolve(prefix + "-scratch");
        this.shutdownHook = new Thread(this::close, "remove-topology-network");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Creates the bridge and one namespace per name in {@code hostNames} (compose service names), in that order. */
    public static Network create(List<String> hostNames) throws IOException {
        String prefix = FAMILY + ProcessHandle.current().pid();
        String subnet = freeSubnet();
        Network network = new Network(prefix, subnet + ".1");
        try {
            Files.createDirectories(network.scratch);
            Commands.run(List.of("ip", "link", "add", network.bridge, "type", "bridge"));
            Commands.run(List.of("ip", "addr", "add", network.gateway + "/24", "dev", network.bridge));
            Commands.run(List.of("ip", "link", "set", network.bridge, "up"));
            for (int i = 0; i < hostNames.size(); i++) {
                String name = hostNames.get(i);
                Host host = new Host(name, prefix + "-" + name, subnet + "." + (FIRST_HOST + i), prefix + "h" + i);
                network.add(host, prefix + "n" + i);
            }
            for (Host host : network.hosts.values()) {
                network.writeHostsFile(host);
            }
            return network;
        } catch (IOException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** The host named {@code name}. */
    public Host host(String name) {
        Host host = hosts.get(name);
        if (host == null) {
            throw new IllegalArgumentException("no host " + name + " in " + hosts.keySet());
        }
        return host;
    }

    /** Every host, in creation order. */
    public List<Host> hosts() {
        return List.copyOf(hosts.values());
    }

    /** The bridge's address: this tool's side of the network. */
    public String gateway() {
        return gateway;
    }

    /** The prefix of every name this run created ({@code tp<pid>}). */
    public String prefix() {
        return prefix;
    }

    /**
     * A short-path folder for this run's Unix sockets (a socket path must stay under 108 bytes, which a report folder
     * may exceed); removed with the network.
     */
    public Path scratch() {
        return scratch;
    }

    /** {@code command} run inside {@code host}'s namespace (and with its /etc/hosts). */
    public List<String> inside(Host host, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", host.namespace()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Runs a short command inside {@code host} (e.g. {@code ip route add}) and returns its output. */
    public String run(Host host, String... command) throws IOException {
        return Commands.run(inside(host, List.of(command)));
    }

    /** What remains of this run: namespaces, links, /etc/netns and scratch folders whose names carry its prefix. */
    public List<String> remains() throws IOException {
        return remainsOf(prefix);
    }

    /** What remains of the run whose names start with {@code prefix} ({@code tp<pid>}). */
    public static List<String> remainsOf(String prefix) throws IOException {
        String bridge = prefix + "br";
        Path scratch = SCRATCH_PARENT.resolve(prefix + "-scratch");
        List<String> remains = new ArrayList<>();
        for (String name : namespaces()) {
            if (name.startsWith(prefix + "-")) {
                remains.add("namespace " + name);
            }
        }
        for (String name : links()) {
            if (name.equals(bridge) || name.startsWith(prefix + "h")) {
                remains.add("link " + name);
            }
        }
        for (String name : netnsFolders()) {
            if (name.startsWith(prefix + "-")) {
                remains.add(NETNS_ETC.resolve(name).toString());
            }
        }
        if (Files.exists(scratch)) {
            remains.add(scratch.toString());
        }
        return remains;
    }

    /**
     * Removes everything: kills what still runs in the namespaces, deletes them, their /etc/netns folders, the veths and
     * the bridge. Safe to call more than once, and from the shutdown hook.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Host host : hosts.values()) {
            removeNamespace(host.namespace());
            deleteLink(host.hostDevice());
        }
        deleteLink(bridge);
        deleteFolder(scratch);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // Called from the hook itself, or while the JVM exits.
        }
    }

    /**
     * Removes what earlier runs that no longer live left behind (a run killed with SIGKILL runs no shutdown hook): their
     * processes, namespaces, /etc/netns folders, veths and bridges. Returns what it removed.
     */
    public static List<String> removeLeftovers() throws IOException {
        List<String> removed = new ArrayList<>();
        for (String name : namespaces()) {
            if (ofDeadRun(name)) {
                removeNamespace(name);
                removed.add("namespace " + name);
            }
        }
        for (String name : netnsFolders()) {
            if (ofDeadRun(name)) {
                deleteFolder(NETNS_ETC.resolve(name));
                removed.add(NETNS_ETC.resolve(name).toString());
            }
        }
        for (String name : links()) {
            if (ofDeadRun(name)) {
                deleteLink(name);
                removed.add("link " + name);
            }
        }
        try (Stream<Path> folders = Files.list(SCRATCH_PARENT)) {
            for (Path folder : folders.filter(f -> f.getFileName().toString().endsWith("-scratch")).toList()) {
                if (ofDeadRun(folder.getFileName().toString())) {
                    deleteFolder(folder);
                    removed.add(folder.toString());
                }
            }
        }
        return removed;
    }

    private void add(Host host, String peer) throws IOException {
        hosts.put(host.name(), host);
        Commands.run(List.of("ip", "netns", "add", host.namespace()));
        Commands.run(List.of("ip", "link", "add", host.hostDevice(), "type", "veth", "peer", "name", peer));
        Commands.run(List.of("ip", "link", "set", peer, "netns", host.namespace()));
        Commands.run(List.of("ip", "-n", host.namespace(), "link", "set", peer, "name", "eth0"));
        Commands.run(List.of("ip", "-n", host.namespace(), "addr", "add", host.address() + "/24", "dev", "eth0"));
        Commands.run(List.of("ip", "-n", host.namespace(), "link", "set", "eth0", "up"));
        Commands.run(List.of("ip", "-n", host.namespace(), "link", "set", "lo", "up"));
        Commands.run(List.of("ip", "link", "set", host.hostDevice(), "master", bridge, "up"));
    }

    private void writeHostsFile(Host host) throws IOException {
        StringBuilder lines = new StringBuilder("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n");
        for (Host other : hosts.values()) {
            lines.append(other.address()).append('\t').append(other.name()).append('\n');
        }
        Path folder = NETNS_ETC.resolve(host.namespace());
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("hosts"), lines);
    }

    private static void removeNamespace(String namespace) {
        try {
            Commands.Result pids = Commands.attempt(List.of("ip", "netns", "pids", namespace));
            if (pids.exitCode() == 0) {
                for (String pid : pids.output().trim().split("\\s+")) {
                    if (!pid.isEmpty()) {
                        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            }
            Commands.attempt(List.of("ip", "netns", "del", namespace));
        } catch (IOException e) {
            // Best effort: the folder below and the next run's leftover sweep still apply.
        }
        deleteFolder(NETNS_ETC.resolve(namespace));
    }

    private static void deleteLink(String name) {
        try {
            Commands.attempt(List.of("ip", "link", "del", name));
        } catch (IOException e) {
            // Gone with its namespace already, or left for the next run's sweep.
        }
    }

    private static void deleteFolder(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // Left for the next run's sweep.
        }
    }

    private static boolean ofDeadRun(String name) {
        Matcher matcher = RUN_NAME.matcher(name);
        if (!matcher.matches()) {
            return false;
        }
        long pid = Long.parseLong(matcher.group(1));
        return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    private static List<String> namespaces() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Commands.run(List.of("ip", "netns", "list")).split("\n")) {
            if (!line.isBlank()) {
                names.add(line.trim().split("\\s+")[0]);
            }
        }
        return names;
    }

    private static List<String> links() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Commands.run(List.of("ip", "-o", "link", "show")).split("\n")) {
            String[] fields = line.split(":\\s+", 3);
            if (fields.length >= 2) {
                names.add(fields[1].replaceFirst("@.*$", ""));
            }
        }
        return names;
    }

    private static List<String> netnsFolders() throws IOException {
        if (!Files.isDirectory(NETNS_ETC)) {
            return List.of();
        }
        try (Stream<Path> folders = Files.list(NETNS_ETC)) {
            return folders.map(path -> path.getFileName().toString()).toList();
        }
    }

    /** A /24 under 10.213 that no address or route of this machine overlaps, e.g. "10.213.57". */
    private static String freeSubnet() throws IOException {
        String used = Commands.run(List.of("ip", "-4", "-o", "addr", "show")) + Commands.run(List.of("ip", "-4", "route", "show", "table", "all"));
        List<int[]> taken = new ArrayList<>();
        Matcher cidr = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)(?:/(\\d+))?").matcher(used);
        while (cidr.find()) {
            int address = (Integer.parseInt(cidr.group(1)) << 24) | (Integer.parseInt(cidr.group(2)) << 16)
                    | (Integer.parseInt(cidr.group(3)) << 8) | Integer.parseInt(cidr.group(4));
            int bits = cidr.group(5) == null ? 32 : Integer.parseInt(cidr.group(5));
            taken.add(new int[] {address, bits});
        }
        int start = (int) (ProcessHandle.current().pid() % 200);
        for (int i = 0; i < 250; i++) {
            int third = (start + i) % 250 + 1;
            int candidate = (10 << 24) | (213 << 16) | (third << 8);
            if (taken.stream().noneMatch(t -> overlaps(candidate, 24, t[0], t[1]))) {
                return "10.213." + third;
            }
        }
        throw new IOException("no free /24 under 10.213.0.0/16 on this machine");
    }

    private static boolean overlaps(int a, int aBits, int b, int bBits) {
        int bits = Math.min(aBits, bBits);
        if (bits == 0) {
            return false; // a default route overlaps everything and means nothing here
        }
        int mask = bits == 32 ? -1 : ~((1 << (32 - bits)) - 1);
        return (a & mask) == (b & mask);
    }
}
