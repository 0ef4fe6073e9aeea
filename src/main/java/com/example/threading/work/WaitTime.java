package com.example.threading.work;

import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code ms} query parameter of every /work pattern: a whole number in 0..60000, random 0..2000 when
 * absent.
 */
final class WaitTime {

    static final int MAX_MS = 60_000;
    static final int RANDOM_MAX_MS = 2_000;

    private WaitTime() {
    }

    /** The requested wait, a random one when {@code ms} is absent, or a 400 JSON error for anything else. */
    static int parse(String ms) {
        if (ms == null) {
            return ThreadLocalRandom.current().nextInt(RANDOM_MAX_MS + 1);
        }
        try {
            int value = Integer.parseInt(ms);
            if (value >= 0 && value <= MAX_MS) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new BadRequestException(Response.status(Response.Status.BAD_REQUEST)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorMessage(400, "query param ms must be a whole number of milliseconds in 0.." + MAX_MS + ", got '" + ms + "'"))
                .build());
    }
}
