package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.GcLog;
import com.example.threading.load.engine.GcPauses;
import com.example.threading.load.engine.GeneratedLoad;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Progress;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.engine.Schedule;
import com.example.threading.load.engine.ToolGcLog;
import com.example.threading.load.target.Target;
import com.example.threading.load.target.TargetOptions;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine;

/**
 * The probe in a JVM of its own ({@code probe --probe-process}): the probe shares no heap, no GC and no
 * client threads with the loaders, and runs with a small heap and a GC chosen for short pauses. The parent starts
 * {@code java <jvm options> -cp <this tool> ProbeProcess <args>} per phase, waits for its "ready" line, runs its
 * loaders, and reads what the child wrote: the phase's {@link PhaseResult}, its 2xx histogram and its
 * {@code SendStages}, as JSON (histograms base64-encoded, compressed).
 *
 * <p>Thread-safety: the parent side ({@link #start}, {@link #awaitReady}, {@link #finish}) is confined to the
 * scenario's thread; the child is another process, killed by its PID when the parent gives up on it.
 */
final class ProbeProcess implements AutoCloseable {

    /** What the child measured. */
    record Measured(PhaseResult result, Histogram histogram, Map<String, Histogram> stages, GcPauses pauses) {
    }

    /** The JSON the child writes. */
    record Written(PhaseResult result, String histogram, Map<String, String> stages, GcPauses pauses) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path output;

    private ProbeProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** Starts the child probe against a running service; it sends once {@link #awaitReady} has seen it ready. */
    static ProbeProcess start(List<String> jvmOptions, java.net.URI service, Protocol protocol, String path, int rate,
                              Duration length, Duration idleTimeout, int connections, Path folder, String name) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ProbeProcess.class.getName(),
                service.toString(), protocol.name(), path, Integer.toString(rate), Long.toString(length.toMillis()),
                Long.toString(idleTimeout.toMillis()), Integer.toString(connections), folder.toAbsolutePath().toString(), name));
        Path output = folder.resolve(name + ".json");
        Process process = new ProcessBuilder(command).redirectError(folder.resolve(name + "-process.log").toFile()).start();
        return new ProbeProcess(process, output);
    }

    /** Waits until the child's client is started (its "ready" line), at most {@code timeout}. */
    void awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8));
        while (System.nanoTime() < deadline) {
            if (lines.ready()) {
                String line = lines.readLine();
                if ("ready".equals(line)) {
                    return;
                }
            } else if (!process.isAlive()) {
                throw new IOException("the probe process exited with " + process.exitValue() + " before it was ready");
            } else {
                Thread.sleep(10);
            }
        }
        throw new IOException("the probe process was not ready within " + timeout);
    }

    /** Waits for the child to end (killing it at the deadline, System.nanoTime) and reads what it measured. */
    Measured finish(long deadlineNanos) throws IOException, InterruptedException {
        long wait = deadlineNanos - System.nanoTime();
        if (wait <= 0 || !process.waitFor(wait, TimeUnit.NANOSECONDS)) {
            close();
            throw new IOException("the probe process did not finish in time");
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(output)) {
            throw new IOException("the probe process failed (exit " + process.exitValue() + "); see " + output.getFileName().toString()
                    .replace(".json", "-process.log"));
        }
        Written written = JSON.readValue(output.toFile(), Written.class);
        Map<String, Histogram> stages = new LinkedHashMap<>();
        written.stages().forEach((stage, encoded) -> stages.put(stage, decode(encoded)));
        return new Measured(written.result(), decode(written.histogram()), stages, written.pauses());
    }

    /** Kills the child if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
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

    /** The child: args are url, protocol, path, rate, length ms, idle timeout ms, connections, folder, name. */
    public static void main(String[] args) throws Exception {
        TargetOptions options = new TargetOptions();
        new CommandLine(options).parseArgs("--url", args[0]);
        Protocol protocol = Protocol.valueOf(args[1]);
        String path = args[2];
        int rate = Integer.parseInt(args[3]);
        Duration length = Duration.ofMillis(Long.parseLong(args[4]));
        Duration idleTimeout = Duration.ofMillis(Long.parseLong(args[5]));
        int connections = Integer.parseInt(args[6]);
        Path folder = Path.of(args[7]);
        String name = args[8];
        Path gcLog = folder.resolve(name + "-gc.log");
        java.time.Instant from = java.time.Instant.now();
        try (Target service = options.open(folder, Map.of(), List.of()); ToolGcLog ownLog = ToolGcLog.start(gcLog).orElse(null)) {
            GeneratedLoad.Spec spec = new GeneratedLoad.Spec(name, protocol, new Resource(path), path, rate, 0, length, 1, idleTimeout,
                    connections);
            GeneratedLoad load = new GeneratedLoad(service, spec, Schedule.fixedRate(rate), folder);
            System.out.println("ready");
            System.out.flush();
            long deadline = System.nanoTime() + length.plus(idleTimeout).plusSeconds(10).toNanos();
            PhaseResult result;
            try (Progress silent = Progress.start(false, name, 0)) {
                result = GeneratedLoad.runTogether(List.of(load), deadline, silent).get(0);
            }
            Map<String, String> stages = new LinkedHashMap<>();
            load.stages().forEach((stage, histogram) -> stages.put(stage, encode(histogram)));
            GcPauses pauses = GcLog.pauses(GcLog.read(gcLog), from, java.time.Instant.now().plusSeconds(1));
            JSON.writeValue(folder.resolve(name + ".json").toFile(), new Written(result, encode(load.histogram()), stages, pauses));
        }
        System.exit(0);
    }
}
