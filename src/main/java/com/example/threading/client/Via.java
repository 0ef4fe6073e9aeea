package com.example.threading.client;

import java.util.Locale;

/**
 * The five ways {@code /fanout} makes its calls, as named in {@code ?via=}.
 */
enum Via {
    /** {@code rx()} CompletionStage on the managed client pool; every stage stays on that pool. */
    MANAGED,
    /** Jersey's RxJava2 {@code Flowable} invoker, scheduled on the same managed pool. */
    RXJAVA,
    /** {@code async()} with an {@code InvocationCallback}, run on the managed pool. */
    CALLBACK,
    /** The pitfall: {@code CompletableFuture.supplyAsync(blocking call)} without an executor. */
    COMMON,
    /** Each call a subtask of one {@code StructuredTaskScope}, on a virtual thread (JDK 25 with {@code --enable-preview}). */
    STRUCTURED;

    /** Accepted values of {@code ?via=}, for Bean Validation. */
    static final String REGEXP = "managed|rxjava|callback|common|structured";

    /** The name used in {@code ?via=}, metric names and answers. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The via named {@code label}; the resource has already checked it against {@link #REGEXP}. */
    static Via of(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }
}
