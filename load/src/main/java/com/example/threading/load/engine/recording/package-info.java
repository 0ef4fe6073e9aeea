/**
 * What a phase of load records and ends in: {@link com.example.threading.load.engine.recording.PhaseRecorder} (every
 * request's {@link com.example.threading.load.engine.recording.Outcome}, HdrHistogram latencies measured from the
 * intended send time, one-second intervals), the result records a phase ends in
 * ({@link com.example.threading.load.engine.recording.PhaseResult},
 * {@link com.example.threading.load.engine.recording.IntervalSample},
 * {@link com.example.threading.load.engine.recording.LatencySummary},
 * {@link com.example.threading.load.engine.recording.MergedPhase}), the interval logs read back
 * ({@link com.example.threading.load.engine.recording.HistogramLogs}) and the terminal
 * {@link com.example.threading.load.engine.recording.Progress} bar.
 *
 * <p>May depend on: nothing else in the load tool (JDK, HdrHistogram, the progress bar).
 */
package com.example.threading.load.engine.recording;
