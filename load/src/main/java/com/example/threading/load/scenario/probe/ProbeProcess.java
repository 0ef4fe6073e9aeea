package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.http.GeneratedLoad;
import com.example.threading.load.engine.http.Load;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.http.Schedule;
import com.example.threading.load.engine.jvm.GcLog;
import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.recording.HistogramLogs;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.service.ChildOutput;
import com.example.threading.load.service.ChildProcesses;
import com.example.threading.load.service.Target;
import com.example.threading.load.service.TargetOptions;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine;

/**
 * The probe in a JVM of its own ({@link ProbeJvm}: small heap, short-pause collector), one per service: it shares
 * no heap, no GC pause and no client threads with the tool or the loaders. The parent starts
 * {@code java <options> -Xlog:gc*,safepoint:file=<name>-gc.log -cp <this tool> ProbeProcess <args>} once a service
 * is up, and the child stays warm (classes loaded, code compiled) through the warm-up, the rate search and the
 * recording. They talk in lines: the child says {@code ready <its JVM as JSON>}; the parent says
 * {@code run <phase> <ms>}, the child answers {@code started <phase>} when it begins sending and
 * {@code done <phase>} when the phase is over, having written the phase's {@code <phase>.hlog} (HdrHistogram
 * interval log of its 2xx latencies, from the intended send time) and {@code <phase>.json} (its
 * {@link PhaseResult} and where its time went); {@code exit} (or the end of its input) ends it. The parent reads
 * the histogram back from the .hlog and the JVM's pauses during the phase from its GC log.
 *
 * <p>Thread-safety: the parent side is confined to the scenario's thread, except one reader thread that moves the
 * child's output lines into a queue; the child is another process, killed by its PID when the parent gives up on it
 * or exits.
 */
final class ProbeProcess implements AutoCloseable {

    /**
     * What the child says about its JVM: process id, JDK, command-line options, collectors, largest heap, and the
     * scheduling priority it runs at ({@code /proc/self/stat}'s nice; 0 where that cannot be read).
     */
    record Facts(long pid, String javaVersion, List<String> arguments, List<String> collectors, long maxHeapBytes, int nice) {
    }

    /** What the child measured in one phase, and its JVM's GC pauses meanwhile. */
    record Measured(PhaseResult result, Histogram histogram, Map<String, Histogram> stages, GcPauses pauses) {
    }

    /** The JSON the child writes per phase (stage histograms base64-encoded, compressed). */
    record Written(PhaseResult result, Map<String, String> stages) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Thread hook;
    private final Path folder;
    private final Path gcLog;
    private final String name;
    private final ChildOutput output;
    private Instant phaseStarted = Instant.now();

    private ProbeProcess(Process process, Path folder, Path gcLog, String name) {
        this.process = process;
        this.hook = ChildProcesses.killOnExit(process, "probe-process-killer");
        this.folder = folder;
        this.gcLog = gcLog;
        this.name = name;
        this.output = ChildOutput.read(process, "probe-process-output", "the probe process (see " + name + "-process.log)");
    }

    /** Starts the child probe against a running service; it sends only when told to run a phase. */
    static ProbeProcess start(ProbeJvm jvm, URI service, Protocol protocol, String path, int rate, Duration idleTimeout, int connections,
                              Path folder, String name) throws IOException {
        Path gcLog = folder.resolve(name + "-gc.log");
        List<String> command = new ArrayList<>(jvm.launcher());
        command.addAll(jvm.options());
        command.add("-Xlog:gc*,safepoint:file=" + gcLog.toAbsolutePath() + ":" + GcLog.DECORATORS + ":filecount=0");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ProbeProcess.class.getName(),
                service.toString(), protocol.name(), path, Integer.toString(rate), Long.toString(idleTimeout.toMillis()),
                Integer.toString(connections), folder.toAbsolutePath().toString()));
        Process process = new ProcessBuilder(command).redirectError(folder.resolve(name + "-process.log").toFile()).start();
        return new ProbeProcess(process, folder, gcLog, name);
    }

    /** Waits until the child is ready (at most {@code timeout}) and returns what it says about its JVM. */
    Facts awaitReady(Duration timeout) throws IOException, InterruptedException {
        String ready = next("ready ", System.nanoTime() + timeout.toNanos());
        return JSON.readValue(ready.substring("ready ".length()), Facts.class);
    }

    /** Tells the child to run a phase of {@code length} and waits until it has begun sending (at most {@code timeout}). */
    void begin(String phase, Duration length, Duration timeout) throws IOException, InterruptedException {
        PrintStream commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        commands.println("run " + phase + " " + length.toMillis());
        next("started " + phase, System.nanoTime() + timeout.toNanos());
        phaseStarted = Instant.now();
    }

    /** Waits for the phase to end (at most until the deadline, System.nanoTime) and reads what the child measured. */
    Measured finish(String phase, long deadlineNanos) throws IOException, InterruptedException {
        next("done " + phase, deadlineNanos);
        Instant phaseEnded = Instant.now();
        Written written = JSON.readValue(folder.resolve(phase + ".json").toFile(), Written.class);
        Map<String, Histogram> stages = new LinkedHashMap<>();
        written.stages().forEach((stage, encoded) -> stages.put(stage, decode(encoded)));
        Histogram histogram = HistogramLogs.sum(folder.resolve(GeneratedLoad.fileName(phase) + ".hlog"), 0).orElseGet(() -> new Histogram(3));
        GcPauses pauses = GcLog.pauses(GcLog.read(gcLog), phaseStarted, phaseEnded);
        return new Measured(written.result(), histogram, stages, pauses);
    }

    /** The child's GC log (every pause of its life, and its safepoints). */
    Path gcLog() {
        return gcLog;
    }

    /** Tells the child to exit, and kills it if it has not within 5 s. */
    @Override
    public void close() {
        ChildProcesses.endByInput(process, hook, Optional.of("exit"));
    }

    private String next(String prefix, long deadlineNanos) throws IOException, InterruptedException {
        return output.next(prefix, deadlineNanos, this::close);
    }

    static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    static Histogram decode(String encoded) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not an encoded histogram", e);
        }
    }

    /** The child: args are url, protocol, path, rate, idle timeout ms, connections, folder; commands on stdin. */
    public static void main(String[] args) throws Exception {
        TargetOptions options = new TargetOptions();
        new CommandLine(options).parseArgs("--url", args[0]);
        Protocol protocol = Protocol.valueOf(args[1]);
        String path = args[2];
        int rate = Integer.parseInt(args[3]);
        Duration idleTimeout = Duration.ofMillis(Long.parseLong(args[4]));
        int connections = Integer.parseInt(args[5]);
        Path folder = Path.of(args[6]);
        PrintStream out = System.out;
        try (Target service = options.open(folder, Map.of(), List.of());
             BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            out.println("ready " + JSON.writeValueAsString(facts()));
            out.flush();
            String command;
            while ((command = commands.readLine()) != null && command.startsWith("run ")) {
                String[] words = command.split(" ");
                String phase = words[1];
                Duration length = Duration.ofMillis(Long.parseLong(words[2]));
                GeneratedLoad.Spec spec = new GeneratedLoad.Spec(phase, protocol, new Resource(path), path, rate, 0, length, 1, idleTimeout,
                        connections);
                GeneratedLoad load = new GeneratedLoad(service, spec, Schedule.fixedRate(rate), folder);
                out.println("started " + phase);
                out.flush();
                long deadline = System.nanoTime() + length.plus(idleTimeout).plusSeconds(10).toNanos();
                PhaseResult result;
                try (Progress silent = Progress.start(false, phase, 0)) {
                    result = Load.runTogether(List.of(load), deadline, silent).get(0);
                }
                Map<String, String> stages = new LinkedHashMap<>();
                load.stages().forEach((stage, histogram) -> stages.put(stage, encode(histogram)));
                JSON.writeValue(folder.resolve(phase + ".json").toFile(), new Written(result, stages));
                out.println("done " + phase);
                out.flush();
            }
        }
        System.exit(0);
    }

    private static Facts facts() {
        List<String> collectors = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList();
        return new Facts(ProcessHandle.current().pid(), Runtime.version().toString(), ManagementFactory.getRuntimeMXBean().getInputArguments(),
                collectors, Runtime.getRuntime().maxMemory(), ownNice());
    }

    /** This process's nice value from /proc/self/stat (the 19th field; the name in parentheses may hold spaces); 0 elsewhere. */
    static int ownNice() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]);
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
    }
}
