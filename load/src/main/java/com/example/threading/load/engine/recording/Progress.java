package com.example.threading.load.engine.recording;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on the terminal (stderr) for one step of a scenario, or nothing when progress is off.
 *
 * <p>Thread-safety: {@link #update} may be called from any thread (the bar's state is synchronized inside
 * the progressbar library, whose own thread redraws it); the scenario's thread updates it and closes it.
 */
public final class Progress implements AutoCloseable {

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    /** A bar counting answers up to {@code expected}, or a silent one. */
    public static Progress start(boolean enabled, String task, long expected) {
        if (!enabled) {
            return new Progress(null);
        }
        return new Progress(new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(Math.max(1, expected))
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .setConsumer(new ConsoleProgressBarConsumer(System.err))
                .showSpeed()
                .build());
    }

    /** Shows how many requests were answered and how many of them with 2xx. */
    public void update(long answered, long ok) {
        if (bar != null) {
            bar.stepTo(answered);
            bar.setExtraMessage(" 2xx " + ok);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
