/**
 * The service under load, the bottom layer of the load tool.
 *
 * <p>Holds: {@link com.example.threading.load.service.TargetOptions} (the picocli options that say where the
 * load goes), {@link com.example.threading.load.service.Target} (a started child or a running service given by
 * URL, with the facts and caveats a report must show about it), {@code ServiceProcess} (the service jar as a
 * child process on free loopback ports, writing its GC log), and the CPU sampling of a process
 * ({@link com.example.threading.load.service.CpuClock}, {@link com.example.threading.load.service.ServerCpu}).
 *
 * <p>May depend on: nothing else in the load tool (JDK and picocli only). It knows nothing of reports: a
 * scenario copies {@code Target.facts()} and {@code Target.caveats()} into its report.
 */
package com.example.threading.load.service;
