package com.example.threading.client;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.function.Supplier;

/**
 * Sends the calling request's context with every downstream call: W3C {@code traceparent} (and {@code tracestate}) of a
 * client span started for the call, and the request id as {@code X-Request-Id}. Both are read off the current
 * OpenTelemetry {@link Context}, so they arrive only when the thread that sends the call runs in the request's context:
 * the client's pool carries it ({@code Context.taskWrapping}); {@code supplyAsync} on the common pool does not (the
 * pitfall {@code via=common} shows). With a tracing SDK the client span is recorded and ends when the answer comes
 * in; a call that fails before any answer leaves it unended, and unexported. Without one the call continues the
 * request's trace from the request's own span.
 *
 * <p>Thread-safety: both filters run on the thread that sends the call and the thread that reads its answer; the
 * span travels between them as a property of the call's request. The tracer is looked up once, on the first call
 * (after the application's start has decided where spans go). {@code RequestContextTest} checks it through the service:
 * each call of a fan-out, on the client's threads, ends its own client span in the request's trace.
 */
final class DownstreamContext implements ClientRequestFilter, ClientResponseFilter {

    /** The baggage entry holding the request id (set by whoever gives requests their context). */
    static final String REQUEST_ID = "request.id";
    /** The header the request id goes out with. */
    static final String REQUEST_ID_HEADER = "X-Request-Id";

    private static final String SPAN_PROPERTY = DownstreamContext.class.getName() + ".span";
    private static final TextMapSetter<MultivaluedMap<String, Object>> HEADERS = (headers, name, value) -> {
        if (headers != null) {
            headers.putSingle(name, value);
        }
    };

    private final Supplier<OpenTelemetry> telemetry;
    private volatile Tracer tracer;

    /** Client spans recorded by what {@code telemetry} gives once the application has started. */
    DownstreamContext(Supplier<OpenTelemetry> telemetry) {
        this.telemetry = telemetry;
    }

    @Override
    public void filter(ClientRequestContext request) {
        Context calling = Context.current();
        Span span = tracer().spanBuilder(request.getMethod())
                .setParent(calling)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("http.request.method", request.getMethod())
                .setAttribute("url.full", request.getUri().toString())
                .startSpan();
        W3CTraceContextPropagator.getInstance().inject(calling.with(span), request.getHeaders(), HEADERS);
        String requestId = Baggage.fromContext(calling).getEntryValue(REQUEST_ID);
        if (requestId != null) {
            request.getHeaders().putSingle(REQUEST_ID_HEADER, requestId);
        }
        if (span.isRecording()) {
            request.setProperty(SPAN_PROPERTY, span);
        }
    }

    @Override
    public void filter(ClientRequestContext request, ClientResponseContext response) {
        if (request.getProperty(SPAN_PROPERTY) instanceof Span span) {
            span.setAttribute("http.response.status_code", response.getStatus());
            if (response.getStatus() >= 500) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }

    private Tracer tracer() {
        Tracer known = tracer;
        if (known == null) {
            known = telemetry.get().getTracer("com.example.threading.client");
            tracer = known;
        }
        return known;
    }
}
