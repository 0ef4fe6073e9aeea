package com.example.threading.load;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service under load: either a child process this tool started (and stops on {@link #close()}), or a
 * running one given by URL. Thread-safe (immutable apart from the child's own close).
 */
final class Target implements AutoCloseable {

    private final URI applicationUri;
    private final Optional<URI> adminUri;
    private final ServerCpu serverCpu;
    private final Optional<ServiceProcess> child;
    private final Map<String, String> environment;
    private final List<String> systemProperties;

    Target(URI applicationUri, Optional<URI> adminUri, ServerCpu serverCpu, Optional<ServiceProcess> child,
           Map<String, String> environment, List<String> systemProperties) {
        this.applicationUri = applicationUri;
        this.adminUri = adminUri;
        this.serverCpu = serverCpu;
        this.child = child;
        this.environment = environment;
        this.systemProperties = systemProperties;
    }

    /** Base URI of the application connector. */
    URI applicationUri() {
        return applicationUri;
    }

    /** Base URI of the admin connector, when known. */
    Optional<URI> adminUri() {
        return adminUri;
    }

    /** The server process for CPU sampling, when known. */
    ServerCpu serverCpu() {
        return serverCpu;
    }

    /** Whether this tool started the service (so the overrides below were applied). */
    boolean started() {
        return child.isPresent();
    }

    /** Environment overrides given to the child (empty for --url). */
    Map<String, String> environment() {
        return environment;
    }

    /** -D overrides given to the child (empty for --url). */
    List<String> systemProperties() {
        return systemProperties;
    }

    /** Stops the child this tool started; a running service given by URL is left alone. */
    @Override
    public void close() {
        child.ifPresent(ServiceProcess::close);
    }
}
