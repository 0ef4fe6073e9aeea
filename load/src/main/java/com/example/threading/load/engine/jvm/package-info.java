/**
 * What explains a tail: the JVMs' GC logs ({@link com.example.threading.load.engine.jvm.GcLog},
 * {@link com.example.threading.load.engine.jvm.ToolGcLog}, {@link com.example.threading.load.engine.jvm.GcPauses}), their
 * heap and threads once a second ({@link com.example.threading.load.engine.jvm.JvmWatch},
 * {@link com.example.threading.load.engine.jvm.JvmSample}), the live heap right after a full collection forced through
 * the admin task {@code /tasks/gc} ({@link com.example.threading.load.engine.jvm.ForcedGc}), async-profiler attached to
 * the service ({@link com.example.threading.load.engine.jvm.Profiler}), and the service's own figures off its admin port,
 * {@code /metrics} and {@code /prometheus} ({@link com.example.threading.load.engine.jvm.ServerMetrics}).
 *
 * <p>May depend on: {@code engine.recording}, {@code engine.http} (one-off requests) and {@code service}.
 */
package com.example.threading.load.engine.jvm;
