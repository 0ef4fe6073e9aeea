/**
 * The request's context across thread hops: a request id, the W3C trace context and the caller, carried by every
 * hand-off of every pattern, and never leaked into the next request a reused thread runs.
 *
 * <p>One carrier: OpenTelemetry's {@link io.opentelemetry.context.Context}, an immutable snapshot. The request id and
 * the caller are baggage entries in it ({@link com.example.threading.context.RequestContext}), the trace is its span;
 * SLF4J's MDC is kept in step with whichever Context is current on a thread
 * ({@link com.example.threading.context.MdcContextStorage}), so log lines carry {@code request_id}, {@code trace_id},
 * {@code span_id} and {@code user}. A hand-off carries it with OpenTelemetry's own wrappers: an executor wrapped once
 * where it is built ({@code Context.taskWrapping(executor)}: each task runs in the context of the thread that submitted
 * it, and the pool thread's previous context comes back after), or one callback wrapped where a request is handed on
 * ({@code Context.current().wrap(runnable)}, or a transport that keeps its request's Context and makes it current
 * around each write).
 *
 * <p>Threads: {@link com.example.threading.context.RequestContextHandler} runs first on the Jetty thread that takes the
 * request (before admission control), makes the request's Context and keeps it on the request;
 * {@link com.example.threading.context.RequestContextFilter} makes it current again on whichever thread the servlet
 * side resumes the request on. Every other thread gets it from the hand-off that gave it work.
 *
 * <p>Entry class: {@link com.example.threading.context.RequestContextBundle}
 * ({@code bootstrap.addBundle(new RequestContextBundle<>(MyConfiguration::getContext))}, after admission control's
 * bundle so that its handler runs first); configuration
 * {@link com.example.threading.context.RequestContextConfiguration} (section {@code context}). The guide is
 * {@code docs/context.md}.
 *
 * <p>To copy: this package and the {@code META-INF/services} entry naming
 * {@link com.example.threading.context.MdcContextStorageProvider}; it needs Dropwizard core and the OpenTelemetry API and
 * SDK (the OTLP exporter only to export), and nothing from the other packages.
 */
package com.example.threading.context;
