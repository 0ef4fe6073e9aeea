package com.example.threading.load.service.topology;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * HAProxy's view of its servers, from {@code show stat} on its stats socket (a Unix socket: reachable from this tool
 * though HAProxy runs in another network namespace).
 */
public final class HaproxyStats {

    /** One server's line: its backend, name, {@code status} ("UP", "UP 1/2", "DOWN", "DOWN 1/2", "MAINT", ...) and last check. */
    public record ServerState(String backend, String server, String status, String check) {

        /** Whether HAProxy sends it requests: UP, including "UP 1/2" (one failed check, not yet out). */
        public boolean inRotation() {
            return status.startsWith("UP");
        }

        /** Up, and its last check passed (HAProxy counts a server up before its first check: "INI"). */
        public boolean checkedUp() {
            return status.equals("UP") && check.startsWith("L7OK");
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private HaproxyStats() {
    }

    /** The servers (not the FRONTEND/BACKEND summary lines) as the socket at {@code socket} reports them now. */
    public static List<ServerState> read(Path socket) throws IOException {
        return parse(command(socket, "show stat"));
    }

    /** Parses {@code show stat}'s CSV (its header line starts with "# "). */
    static List<ServerState> parse(String csv) {
        String[] lines = csv.split("\n");
        if (lines.length == 0 || !lines[0].startsWith("# ")) {
            throw new IllegalArgumentException("not HAProxy's show stat output: " + csv.lines().findFirst().orElse(""));
        }
        List<String> header = Arrays.asList(lines[0].substring(2).split(",", -1));
        int backend = header.indexOf("pxname");
        int server = header.indexOf("svname");
        int status = header.indexOf("status");
        int check = header.indexOf("check_status");
        List<ServerState> servers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] fields = lines[i].split(",", -1);
            if (fields.length <= Math.max(status, check) || fields[server].equals("FRONTEND") || fields[server].equals("BACKEND")) {
                continue;
            }
            servers.add(new ServerState(fields[backend], fields[server], fields[status], fields[check]));
        }
        return servers;
    }

    private static String command(Path socket, String command) throws IOException {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
             Selector selector = Selector.open()) {
            channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII)));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(16_384);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("no complete answer to '" + command + "' on " + socket + " within " + TIMEOUT.toSeconds() + " s");
                }
                selector.select(Math.max(1, left / 1_000_000));
                selector.selectedKeys().clear();
                int read = channel.read(buffer);
                if (read < 0) {
                    return answer.toString(StandardCharsets.UTF_8);
                }
                answer.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
        }
    }
}
