package com.example.threading.context;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.trace.IdGenerator;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Gives every request of the application connector its context, before anything else sees it (admission control's
 * {@code 503}s included): its request id ({@code X-Request-Id} kept when valid, else a new one, echoed on the answer at
 * once), its trace (W3C {@code traceparent}/{@code tracestate} extracted; a missing or malformed one starts a new
 * trace, never an error) and, with a tracing SDK, a server span that ends when the answer is complete. The
 * {@link Context} is current while this handler runs and is kept on the request ({@link #ATTRIBUTE}), from where
 * {@link RequestContextFilter} makes it current again when the request goes on on another thread (an async dispatch,
 * a request admission control queued and resumed).
 *
 * <p>Without a recording tracer the request still has a span context of its own: the incoming trace id (or a new one)
 * with a new span id, unsampled unless the caller sampled it, so logs carry {@code trace_id}/{@code span_id} and
 * downstream calls continue the trace. Under the OpenTelemetry Java agent, whose server span is current when this
 * handler runs, the request joins it.
 */
final class RequestContextHandler extends Handler.Wrapper {

    /** The request attribute holding the request's {@link Context}. */
    static final String ATTRIBUTE = RequestContext.class.getName();

    private static final TextMapGetter<HttpFields> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpFields fields) {
            return fields.getFieldNamesCollection();
        }

        @Override
        public String get(HttpFields fields, String key) {
            return fields == null ? null : fields.get(key);
        }
    };

    private final Tracer tracer;
    private final boolean recording;

    /** Starts server spans with {@code tracer}; {@code recording}: whether it records any (an SDK, not the no-op API). */
    RequestContextHandler(Tracer tracer, boolean recording) {
        this.tracer = tracer;
        this.recording = recording;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String requestId = RequestIds.accept(request.getHeaders().get(RequestContext.REQUEST_ID_HEADER));
        response.getHeaders().put(RequestContext.REQUEST_ID_HEADER, requestId);
        Context context = contextOf(request, requestId);
        request.setAttribute(ATTRIBUTE, context);
        Span span = Span.fromContext(context);
        Callback ending = span.isRecording() ? new EndSpan(callback, span, response) : callback;
        boolean handled = false;
        try (Scope current = context.makeCurrent()) {
            handled = super.handle(request, response, ending);
            return handled;
        } finally {
            if (!handled && ending != callback) {
                span.end(); // not ours to answer: Jetty answers 404 with its own callback
            }
        }
    }

    /** The request's context: its trace (joined, continued or new), its span, and its id in baggage. */
    private Context contextOf(Request request, String requestId) {
        Context current = Context.current();
        Context traced;
        if (RequestContext.spanContext(current).isValid()) {
            traced = current; // the agent's server span: join it
        } else {
            Context extracted = W3CTraceContextPropagator.getInstance().extract(Context.root(), request.getHeaders(), HEADERS);
            traced = extracted.with(recording ? serverSpan(request, extracted, requestId) : unrecordedSpan(extracted));
        }
        // A caller is only ever the one this service authenticated, never one that came in as baggage.
        Baggage baggage = Baggage.fromContext(traced).toBuilder()
                .put(RequestContext.REQUEST_ID, requestId).remove(RequestContext.USER).build();
        return traced.with(baggage);
    }

    private Span serverSpan(Request request, Context parent, String requestId) {
        return tracer.spanBuilder(request.getMethod())
                .setParent(parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute("http.request.method", request.getMethod())
                .setAttribute("url.path", request.getHttpURI().getPath())
                .setAttribute(RequestContext.REQUEST_ID, requestId) // a request's log lines and its span, found by one id
                .startSpan();
    }

    /** A span of this hop that records nothing: the incoming trace (or a new one), a new span id, the caller's flags. */
    private static Span unrecordedSpan(Context extracted) {
        SpanContext incoming = RequestContext.spanContext(extracted);
        IdGenerator ids = IdGenerator.random();
        return Span.wrap(incoming.isValid()
                ? SpanContext.create(incoming.getTraceId(), ids.generateSpanId(), incoming.getTraceFlags(), incoming.getTraceState())
                : SpanContext.create(ids.generateTraceId(), ids.generateSpanId(), TraceFlags.getDefault(),
                        TraceState.getDefault()));
    }

    /** Ends the server span when the answer is complete, with its status. */
    private static final class EndSpan extends Callback.Nested {

        private final Span span;
        private final Response response;

        EndSpan(Callback callback, Span span, Response response) {
            super(callback);
            this.span = span;
            this.response = response;
        }

        @Override
        public void succeeded() {
            end(null);
            super.succeeded();
        }

        @Override
        public void failed(Throwable failure) {
            end(failure);
            super.failed(failure);
        }

        private void end(Throwable failure) {
            int status = response.getStatus();
            span.setAttribute("http.response.status_code", status);
            if (failure != null) {
                span.recordException(failure);
            }
            if (status >= 500 || failure != null) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }
}
