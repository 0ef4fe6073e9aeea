package com.example.threading.jetty;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.NotNull;

/**
 * The {@code jetty} section of config.yml: how the application connector runs what its selectors produce, and whether
 * its HTTP/1.1 connections keep a header field cache.
 */
public final class JettyConfiguration {

    /** {@code adaptive} (Jetty's default, eat-what-you-kill) or {@code produce-execute-consume} (no reserved threads). */
    @NotNull
    @JsonProperty
    private ExecutionStrategyMode executionStrategy = ExecutionStrategyMode.ADAPTIVE;

    /**
     * Whether Jetty keeps a cache of repeated request header fields per HTTP/1.1 connection (its size: docs/jetty.md);
     * false: none (see {@link HeaderFieldCache}).
     */
    @JsonProperty
    private boolean headerFieldCache;

    /** Whether each HTTP/1.1 connection keeps Jetty's header field cache. */
    public boolean isHeaderFieldCache() {
        return headerFieldCache;
    }

    /** The mode the application thread pool is set to before it starts. */
    public ExecutionStrategyMode getExecutionStrategy() {
        return executionStrategy;
    }
}
