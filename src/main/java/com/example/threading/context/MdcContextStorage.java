package com.example.threading.context;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import org.slf4j.MDC;

/**
 * OpenTelemetry's context storage with SLF4J's MDC kept in step: whenever a {@link Context} becomes current on a thread
 * ({@code makeCurrent}, or a task of a {@code Context.taskWrapping} executor starting), the MDC shows its request id,
 * trace id, span id and caller; when that scope closes, the thread's previous MDC values come back (never just
 * cleared, so a pool thread shows nothing of the request it ran before). The Context is the one carrier; the MDC is a
 * view of it, so they cannot disagree.
 *
 * <p>Installed by {@link MdcContextStorageProvider} (found by OpenTelemetry through {@code ServiceLoader} when the
 * storage is first used, whatever touches it first). Under the OpenTelemetry Java agent, which ignores storage
 * providers, the MDC follows the context only where this storage is added as a wrapper (docs/context.md).
 *
 * <p>It holds no state of its own: each attach touches only the calling thread's MDC, and its scope restores it on the
 * same thread (scopes close on the thread that opened them, in reverse order).
 */
final class MdcContextStorage implements ContextStorage {

    private static final String[] KEYS = {RequestContext.MDC_REQUEST_ID, RequestContext.MDC_TRACE_ID,
            RequestContext.MDC_SPAN_ID, RequestContext.MDC_USER};

    private final ContextStorage delegate;

    /** The MDC kept in step with what {@code delegate} makes current. */
    MdcContextStorage(ContextStorage delegate) {
        this.delegate = delegate;
    }

    @Override
    public Scope attach(Context toAttach) {
        if (toAttach == delegate.current()) {
            return Scope.noop(); // already current: the MDC shows it
        }
        String[] previous = new String[KEYS.length];
        String[] next = values(toAttach);
        for (int k = 0; k < KEYS.length; k++) {
            previous[k] = MDC.get(KEYS[k]);
            set(KEYS[k], next[k]);
        }
        Scope attached = delegate.attach(toAttach);
        return () -> {
            attached.close();
            for (int k = 0; k < KEYS.length; k++) {
                set(KEYS[k], previous[k]);
            }
        };
    }

    @Override
    public Context current() {
        return delegate.current();
    }

    @Override
    public Context root() {
        return delegate.root();
    }

    /** The MDC values of {@code context}, in the order of {@link #KEYS}; null for what it does not hold. */
    private static String[] values(Context context) {
        SpanContext span = RequestContext.spanContext(context);
        boolean traced = span.isValid();
        return new String[] {RequestContext.requestId(context), traced ? span.getTraceId() : null,
                traced ? span.getSpanId() : null, RequestContext.user(context)};
    }

    private static void set(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
