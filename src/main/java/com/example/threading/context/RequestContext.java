package com.example.threading.context;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;

/**
 * What a request's context holds, by name, read off OpenTelemetry's {@link Context}: the trace (its span), the request
 * id and the caller, the last two as {@link Baggage} entries, so that any code with the OpenTelemetry API reads them
 * without this package ({@code Baggage.current().getEntryValue("request.id")}), and the log's MDC shows them
 * ({@link MdcContextStorage}). The names are OpenTelemetry's semantic conventions where one exists.
 */
public final class RequestContext {

    /** The header a request id comes in and goes out with. */
    public static final String REQUEST_ID_HEADER = "X-Request-Id";
    /** Baggage entry of the request id. */
    public static final String REQUEST_ID = "request.id";
    /**
     * Baggage entry of the authenticated caller (a JWT's {@code sub}; the events wing's access gate puts it there by
     * this name, without this package); also the server span's attribute.
     */
    public static final String USER = "enduser.id";

    /** MDC key of the request id. */
    public static final String MDC_REQUEST_ID = "request_id";
    /** MDC key of the trace id (32 hex digits), as OpenTelemetry's log instrumentation names it. */
    public static final String MDC_TRACE_ID = "trace_id";
    /** MDC key of the current span's id (16 hex digits). */
    public static final String MDC_SPAN_ID = "span_id";
    /** MDC key of the caller. */
    public static final String MDC_USER = "user";

    private RequestContext() {
    }

    /** The request id of {@code context}, or null outside a request. */
    public static String requestId(Context context) {
        return Baggage.fromContext(context).getEntryValue(REQUEST_ID);
    }

    /** The caller of {@code context}, or null when none was authenticated. */
    public static String user(Context context) {
        return Baggage.fromContext(context).getEntryValue(USER);
    }

    /** The span context of {@code context}: valid when a trace came in or a span was started. */
    public static SpanContext spanContext(Context context) {
        return Span.fromContext(context).getSpanContext();
    }
}
