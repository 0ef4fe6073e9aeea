package com.example.threading.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when something it needs from outside the build (a server binary, an OS tool) cannot run here: under
 * {@code CI=true} it fails, so that a gate never turns green by skipping; elsewhere it is skipped with a message that
 * names how to get the missing piece.
 *
 * <p>Thread-safety: stateless.
 */
public final class Prerequisites {

    private Prerequisites() {
    }

    /** Whether this run is CI's ({@code CI=true} in the environment). */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Ends the calling test because {@code what} cannot run here: fails under CI, else skips; {@code remedy} says how
     * to get it (e.g. {@code apt-get install -y redis-server}). Never returns.
     */
    public static RuntimeException unavailable(String what, String remedy) {
        String message = what + " (" + remedy + ")";
        if (inCi()) {
            throw new AssertionError("CI=true and the test cannot run: " + message);
        }
        Assumptions.abort("SKIPPED: " + message);
        throw new AssertionError("unreachable");
    }
}
