package com.example.threading;

import com.example.threading.admission.AdmissionConfiguration;
import com.example.threading.context.RequestContextConfiguration;
import com.example.threading.client.FanoutClientConfiguration;
import com.example.threading.jetty.JettyConfiguration;
import com.example.threading.jetty.virtual.ServerVirtualThreadsConfiguration;
import com.example.threading.events.EventsConfiguration;
import com.example.threading.events.sse.SseConfiguration;
import com.example.threading.events.websocket.WebSocketConfiguration;
import com.example.threading.work.WorkConfiguration;
import com.example.threading.threads.ThreadsConfiguration;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/**
 * The service's configuration: Dropwizard's {@code server}, {@code logging}, {@code metrics} plus one section
 * per pattern.
 */
public final class ThreadingConfiguration extends Configuration {

    @Valid
    @NotNull
    @JsonProperty
    private WorkConfiguration work = new WorkConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private EventsConfiguration events = new EventsConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private SseConfiguration sse = new SseConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private WebSocketConfiguration websocket = new WebSocketConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private FanoutClientConfiguration client = new FanoutClientConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private JettyConfiguration jetty = new JettyConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private ServerVirtualThreadsConfiguration serverVirtualThreads = new ServerVirtualThreadsConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private AdmissionConfiguration admission = new AdmissionConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private RequestContextConfiguration context = new RequestContextConfiguration();

    @Valid
    @NotNull
    @JsonProperty
    private ThreadsConfiguration threads = new ThreadsConfiguration();

    /** Settings of the {@code /work/{pattern}} endpoints and their pools. */
    public WorkConfiguration getWork() {
        return work;
    }

    /** Settings of the long-poll event endpoints {@code /events}. */
    public EventsConfiguration getEvents() {
        return events;
    }

    /** The Server-Sent Events streams of {@code GET /events/stream}, on top of the long-poll. */
    public SseConfiguration getSse() {
        return sse;
    }

    /** The WebSockets of {@code GET /events/ws}, on top of the long-poll. */
    public WebSocketConfiguration getWebsocket() {
        return websocket;
    }

    /** The Jersey client behind {@code /fanout}: its pool, timeouts, connection pool and downstream. */
    public FanoutClientConfiguration getClient() {
        return client;
    }

    /** Server-level admission control in front of the application: places, queue, Retry-After. */
    public AdmissionConfiguration getAdmission() {
        return admission;
    }

    /** The request's context across thread hops: request id, trace context, where spans are exported. */
    public RequestContextConfiguration getContext() {
        return context;
    }

    /** How the application connector runs what its selectors produce (adaptive / produce-execute-consume). */
    public JettyConfiguration getJetty() {
        return jetty;
    }

    /**
     * Whether the application connector's requests run on virtual threads, and how many at once ({@code
     * getMaxConcurrent()}, the bound admission control should derive from when they do).
     */
    public ServerVirtualThreadsConfiguration getServerVirtualThreads() {
        return serverVirtualThreads;
    }

    /** Which of virtual threads' JFR events become metrics (JDK 21+). */
    public ThreadsConfiguration getThreads() {
        return threads;
    }
}
