package com.example.threading.jmh;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** JMH's command line (every option of {@code org.openjdk.jmh.Main}) with {@link CpuTimeProfiler} always on. */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    /** Runs the benchmarks selected by {@code args} (all of them by default), e.g. {@code -wi 3 -i 5 -r 5s}. */
    public static void main(String[] args) throws Exception {
        CommandLineOptions commandLine = new CommandLineOptions(args);
        if (commandLine.shouldHelp() || commandLine.shouldList() || commandLine.shouldListProfilers()
                || commandLine.shouldListResultFormats() || commandLine.shouldListWithParams()) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        new Runner(new OptionsBuilder().parent(commandLine).addProfiler(CpuTimeProfiler.class).build()).run();
    }
}
