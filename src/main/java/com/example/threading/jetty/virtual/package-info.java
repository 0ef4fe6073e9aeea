/**
 * Virtual threads on the server side: the application connector's requests each run on a virtual thread, at most
 * {@code serverVirtualThreads.maxConcurrent} at once, so a request that blocks (Thread.sleep, a lock, a blocking
 * read) parks a virtual thread instead of holding one of {@code server.maxThreads} platform threads.
 *
 * <p>Why not Dropwizard's {@code server.enableVirtualThreads}: Dropwizard 5.0.1 installs Jetty's
 * {@code VirtualThreadPool(server.maxThreads)}, whose semaphore lets only 200 tasks run at once, as many as on
 * platform threads (docs/virtual-threads.md measures it), and on JDK 17 Jetty logs a warning and silently keeps
 * platform threads. This package installs its own
 * {@link com.example.threading.jetty.virtual.BoundedVirtualThreadExecutor} with a bound of its own, refuses to start
 * below JDK 21, and refuses Dropwizard's flag.
 *
 * <p>Threads: the start-up thread checks the JDK and installs the executor as the virtual-threads executor of
 * Jetty's application {@code QueuedThreadPool} before the pool starts. Jetty then keeps its platform threads for
 * the selectors and non-blocking tasks; every blocking task (an HTTP/1.1 request, an HTTP/2 stream) goes to the
 * executor, which starts a virtual thread {@code dw-virtual-<n>} that takes a permit (or parks until one is free)
 * and runs the request. With virtual threads Jetty reserves no threads, so eat-what-you-kill (EPC) never runs a
 * request on the selector's platform thread. The admin connector keeps its own platform pool.
 *
 * <p>It sits under {@code jetty/} because it is a Jetty thread-pool concern (the same pre-start hook as the
 * execution-strategy switch, and what Jetty does depends on the pool's reserved threads), in a sub-package because
 * it is a pattern of its own that uses nothing of {@code jetty/}.
 *
 * <p>Entry class: {@link com.example.threading.jetty.virtual.ServerVirtualThreadsBundle}, a Dropwizard bundle added
 * before those that build pools ({@code bootstrap.addBundle(new ServerVirtualThreadsBundle<>(
 * MyConfiguration::getServerVirtualThreads))}), which runs {@link com.example.threading.jetty.virtual.ServerVirtualThreads};
 * configuration {@link com.example.threading.jetty.virtual.ServerVirtualThreadsConfiguration} (section
 * {@code serverVirtualThreads}, {@code SERVER_VIRTUAL_THREADS}, {@code VIRTUAL_MAX_CONCURRENT}); gauges
 * {@code server.virtual-threads.*}. The guide is {@code docs/virtual-threads.md}.
 *
 * <p>To copy: the package and one {@code addBundle} line; it needs Dropwizard core (Jetty 12.1) and JDK 21+ to run
 * with the switch on.
 */
package com.example.threading.jetty.virtual;
