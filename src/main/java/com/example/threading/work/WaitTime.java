package com.example.threading.work;

import io.dropwizard.jersey.params.IntParam;
import java.util.concurrent.ThreadLocalRandom;

/** Resolves the {@code ms} query parameter; range and number format are checked by Bean Validation on the resource. */
final class WaitTime {

    static final int MAX_MS = 60_000;
    static final int RANDOM_MAX_MS = 2_000;

    private WaitTime() {
    }

    /** The requested wait, or a random one in 0..2000 ms when the caller gave none. */
    static int resolve(IntParam ms) {
        return ms == null ? ThreadLocalRandom.current().nextInt(RANDOM_MAX_MS + 1) : ms.get();
    }
}
