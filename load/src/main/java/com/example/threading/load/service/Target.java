package com.example.threading.load.service;

import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The service under load: either a child process this tool started (and stops on {@link #close()}), or a
 * running one given by URL. It also carries what a report must say about it: {@link #facts()} (which jar,
 * JDK and overrides) and {@link #caveats()} (overrides not applied, CPU not measured).
 *
 * <p>Thread-safety: immutable apart from the child process, whose {@link ServiceProcess#close()} may be called
 * from any thread, and the before-close actions (a concurrent list: added from any thread, run by whoever
 * closes); every accessor may be called from any thread.
 */
public final class Target implements AutoCloseable {

    private final URI applicationUri;
    private final Optional<URI> adminUri;
    private final ServerCpu serverCpu;
    private final Optional<ServiceProcess> child;
    private final Map<String, String> facts;
    private final List<String> caveats;
    private final List<Runnable> beforeClose = new CopyOnWriteArrayList<>();

    Target(URI applicationUri, Optional<URI> adminUri, ServerCpu serverCpu, Optional<ServiceProcess> child,
           Map<String, String> facts, List<String> caveats) {
        this.applicationUri = applicationUri;
        this.adminUri = adminUri;
        this.serverCpu = serverCpu;
        this.child = child;
        this.facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        this.caveats = List.copyOf(caveats);
    }

    /** Base URI of the application connector. */
    public URI applicationUri() {
        return applicationUri;
    }

    /** Base URI of the admin connector, when known. */
    public Optional<URI> adminUri() {
        return adminUri;
    }

    /** The server process for CPU sampling, when known. */
    public ServerCpu serverCpu() {
        return serverCpu;
    }

    /** Facts for the report's "Machine and JDK" table, in the order they should appear (empty for --url). */
    public Map<String, String> facts() {
        return facts;
    }

    /** Sentences the reader must see about this target (e.g. overrides that were not applied). */
    public List<String> caveats() {
        return caveats;
    }

    /** Kills the child this tool started with SIGKILL (a crash); a running service given by URL is left alone. */
    public void kill() {
        child.ifPresent(ServiceProcess::kill);
    }

    /** The service's GC log ({@code -Xlog:gc*}), when the tool started the service and so could ask for one. */
    public Optional<Path> gcLog() {
        return child.map(ServiceProcess::gcLog);
    }

    /** A short name for the report: the child's log name without ".log" ("service-1"), or "service" for --url. */
    public String name() {
        return child.map(process -> process.log().getFileName().toString().replaceFirst("\\.log$", "")).orElse("service");
    }

    /** Runs {@code action} when the target is closed, before the child is stopped (e.g. to stop a profiler attached to it). */
    public void beforeClose(Runnable action) {
        beforeClose.add(action);
    }

    /** Stops the child this tool started; a running service given by URL is left alone. */
    @Override
    public void close() {
        beforeClose.forEach(Runnable::run);
        beforeClose.clear();
        child.ifPresent(ServiceProcess::close);
    }
}
