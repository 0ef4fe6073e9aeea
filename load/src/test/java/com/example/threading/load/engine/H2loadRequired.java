package com.example.threading.load.engine;

import static org.assertj.core.api.Assertions.fail;

import com.example.threading.load.engine.http.H2load;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** h2load for a test that needs it: CI (CI=true) fails without it, elsewhere the test is skipped saying how to install it. */
public final class H2loadRequired {

    private H2loadRequired() {
    }

    /** h2load's path, or the test fails (under CI) or is skipped (elsewhere). */
    public static Path path() {
        return H2load.onPath().orElseGet(() -> {
            String message = "h2load is not on PATH: " + H2load.INSTALL + " (Debian's nghttp2-client; .ci/run installs it)";
            if ("true".equals(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort("SKIPPED: " + message);
            return null;
        });
    }
}
