package com.example.threading.load.report;

import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.jvm.JvmSample;
import com.example.threading.load.engine.jvm.JvmWatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Why a tail is what it is, for every JVM of a run (each service the tool started, and the tool itself): a table
 * of GC pauses (count, total, longest, from each JVM's GC log), peak heap, threads and open files, and two
 * plots over time (heap used, live threads); the samples and pauses also go to results.json.
 *
 * <p>Call it once the watches are closed.
 */
public final class JvmViews {

    private JvmViews() {
    }

    /** The JVM table, jvm-heap.png and jvm-threads.png, and the "jvms" data of results.json. */
    public static void present(Report report, List<JvmWatch> watches) throws IOException {
        if (watches.isEmpty()) {
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        List<Map<String, Object>> data = new ArrayList<>();
        Map<String, List<double[]>> heap = new LinkedHashMap<>();
        Map<String, List<double[]>> threads = new LinkedHashMap<>();
        for (JvmWatch watch : watches) {
            GcPauses pauses = watch.pauses();
            List<JvmSample> samples = watch.samples();
            String log = watch.gcLog().map(file -> "`" + file.getFileName() + "`").orElse("–");
            boolean logged = watch.gcLog().isPresent();
            rows.add(List.of(watch.name(), watch.pid().map(String::valueOf).orElse("–"), log,
                    logged ? Long.toString(pauses.count()) : "–", logged ? Report.ms(pauses.totalMs()) : "–",
                    logged ? Report.ms(pauses.maxMs()) : "–", Report.num(peak(samples, JvmSample::heapUsedMb)),
                    Report.num(peak(samples, JvmSample::threads)), Report.num(peak(samples, JvmSample::openFiles)),
                    Integer.toString(samples.size())));
            heap.put(watch.name() + " heap used", series(samples, JvmSample::heapUsedMb));
            threads.put(watch.name() + " threads", series(samples, JvmSample::threads));
            Map<String, Object> jvm = new LinkedHashMap<>();
            jvm.put("name", watch.name());
            jvm.put("gcLog", watch.gcLog().map(file -> file.getFileName().toString()).orElse(null));
            jvm.put("gcPauses", pauses);
            jvm.put("samples", samples);
            data.add(jvm);
        }
        report.table(new Table("JVMs: GC pauses, heap, threads (the services and the tool itself)",
                List.of("JVM", "pid", "GC log", "GC pauses", "pause total ms", "longest pause ms", "peak heap used MB",
                        "peak threads", "peak open files", "samples"), rows));
        Plots.overTime(report.directory().resolve("jvm-heap.png"), "Heap used", "MB", heap);
        report.plot("jvm-heap.png", "Heap used once a second, per JVM (the services from their admin /metrics, the tool from its MXBeans).");
        Plots.overTime(report.directory().resolve("jvm-threads.png"), "Live threads", "threads", threads);
        report.plot("jvm-threads.png", "Live threads once a second, per JVM.");
        report.data("jvms", data);
    }

    private static double peak(List<JvmSample> samples, ToDoubleFunction<JvmSample> value) {
        return samples.stream().mapToDouble(value).filter(Double::isFinite).max().orElse(Double.NaN);
    }

    private static List<double[]> series(List<JvmSample> samples, ToDoubleFunction<JvmSample> value) {
        return samples.stream().filter(sample -> Double.isFinite(value.applyAsDouble(sample)))
                .map(sample -> new double[] {sample.atSeconds(), value.applyAsDouble(sample)}).toList();
    }
}
