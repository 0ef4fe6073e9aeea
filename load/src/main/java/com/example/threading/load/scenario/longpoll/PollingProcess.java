package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.http.ClientConnections;
import com.example.threading.load.engine.jvm.GcLog;
import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.engine.traffic.PollingClients;
import com.example.threading.load.service.ChildOutput;
import com.example.threading.load.service.ChildProcesses;
import com.example.threading.load.service.ServerCpu;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A share of the long-poll clients in a JVM of its own, so that clients are not limited by one process's open files
 * (20,000 here), CPU or GC. The parent starts {@code java -Xlog:gc*:file=<name>-gc.log -cp <this tool> PollingProcess
 * <args>}; the child opens one connection per client and says {@code connected <n>}; on {@code go} (sent to every
 * child at once) it polls, writes {@code <name>.hlog} (its 2xx latencies) and {@code <name>.json} ({@link Written}),
 * and says {@code done}. The end of its input before {@code go} ends it.
 *
 * <p>Thread-safety: the parent side is confined to the scenario's thread, except one reader thread that moves the
 * child's output lines into a queue; the child is another process, killed by its PID when the parent gives up on it or
 * exits.
 */
final class PollingProcess implements AutoCloseable {

    /** What the child writes when its polls are over. */
    record Written(PhaseResult result, ClientConnections connections, boolean complete, long events, long missed, long noEvent,
                   long unparsable) {
    }

    /** What the parent reads back: the child's result and its JVM's GC pauses while it polled. */
    record Measured(Written written, GcPauses pauses, long pid) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Thread hook;
    private final Path folder;
    private final String name;
    private final ChildOutput output;
    private Instant pollingStarted = Instant.now();

    private PollingProcess(Process process, Path folder, String name) {
        this.process = process;
        this.hook = ChildProcesses.killOnExit(process, "polling-process-killer");
        this.folder = folder;
        this.name = name;
        this.output = ChildOutput.read(process, "polling-process-output", "the polling process " + name + " (see " + name + "-process.log)");
    }

    /** What one child is asked to do. */
    record Share(URI endpoint, int clients, int iterations, int pollTimeoutSeconds, boolean waitNext, Optional<Long> serverPid,
                 String label) {
    }

    /** Starts a child with {@code share} of the clients; it connects them at once and polls only when told to. */
    static PollingProcess start(Share share, Duration connectLimit, Duration pollLimit, Path folder, String name) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xlog:gc*:file=" + folder.resolve(name + "-gc.log").toAbsolutePath() + ":" + GcLog.DECORATORS + ":filecount=0");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PollingProcess.class.getName(),
                share.endpoint().toString(), Integer.toString(share.clients()), Integer.toString(share.iterations()),
                Integer.toString(share.pollTimeoutSeconds()), Boolean.toString(share.waitNext()),
                Long.toString(share.serverPid().orElse(-1L)), folder.toAbsolutePath().toString(), name, share.label(),
                Long.toString(connectLimit.toMillis()), Long.toString(pollLimit.toMillis())));
        Process process = new ProcessBuilder(command).redirectError(folder.resolve(name + "-process.log").toFile()).start();
        return new PollingProcess(process, folder, name);
    }

    /** The child's process id. */
    long pid() {
        return process.pid();
    }

    /** Waits until the child has opened its clients' connections (at most until the deadline); returns how many are open. */
    int awaitConnected(long deadlineNanos) throws IOException, InterruptedException {
        return Integer.parseInt(next("connected ", deadlineNanos).substring("connected ".length()).trim());
    }

    /** Tells the child to start polling. */
    void go() {
        pollingStarted = Instant.now();
        new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8).println("go");
    }

    /** Waits for the child's polls to end (at most until the deadline) and reads what it measured. */
    Measured finish(long deadlineNanos) throws IOException, InterruptedException {
        next("done", deadlineNanos);
        Instant ended = Instant.now();
        Written written = JSON.readValue(folder.resolve(name + ".json").toFile(), Written.class);
        GcPauses pauses = GcLog.pauses(GcLog.read(folder.resolve(name + "-gc.log")), pollingStarted, ended);
        return new Measured(written, pauses, process.pid());
    }

    /** Ends the child: closes its input, and kills it if it has not exited within 5 s. */
    @Override
    public void close() {
        ChildProcesses.endByInput(process, hook, Optional.empty());
    }

    private String next(String prefix, long deadlineNanos) throws IOException, InterruptedException {
        return output.next(prefix, deadlineNanos, this::close);
    }

    /**
     * The child: {@code <endpoint> <clients> <iterations> <poll timeout s> <wait next> <server pid or -1> <folder> <name>
     * <label> <connect limit ms> <poll limit ms>}.
     */
    public static void main(String[] args) throws Exception {
        URI endpoint = URI.create(args[0]);
        int clients = Integer.parseInt(args[1]);
        long serverPid = Long.parseLong(args[5]);
        Path folder = Path.of(args[6]);
        String name = args[7];
        PollingClients polling = new PollingClients(endpoint, clients, Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Boolean.parseBoolean(args[4]));
        int open = polling.connect(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[9])));
        System.out.println("connected " + open);
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String command = commands.readLine();
        if (!"go".equals(command)) {
            System.exit(1);
        }
        ServerCpu server = new ServerCpu(serverPid < 0 ? Optional.empty() : ProcessHandle.of(serverPid));
        PhaseRecorder recorder = new PhaseRecorder(args[8], folder.resolve(name + ".hlog"), server);
        boolean complete = polling.poll(recorder, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[10])),
                Progress.start(false, name, 0));
        PhaseResult result = recorder.finish("HTTP/1.1", endpoint.getPath(), 0);
        JSON.writeValue(folder.resolve(name + ".json").toFile(), new Written(result, polling.connections(), complete, polling.events(),
                polling.missed(), polling.noEvent(), polling.unparsable()));
        System.out.println("done");
        System.out.flush();
        System.exit(0);
    }
}
