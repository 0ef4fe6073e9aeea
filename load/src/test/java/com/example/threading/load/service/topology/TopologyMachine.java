package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.fail;

import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The gate of every test that builds network namespaces: under {@code CI=true} a machine that cannot run them fails
 * the test (CI installs the tools and runs as root); elsewhere the test is skipped with what is missing and the
 * command that installs it.
 */
public final class TopologyMachine {

    private TopologyMachine() {
    }

    /** Returns when a topology can run here; fails (CI) or skips (elsewhere) otherwise. */
    public static void require() {
        List<String> missing = Prerequisites.missing();
        if (missing.isEmpty()) {
            return;
        }
        String message = "the topology tests need root and haproxy, redis-server, iproute2: " + String.join("; ", missing)
                + ". Install with: " + Prerequisites.INSTALL + " (and run as root)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("CI=true: " + message);
        }
        Assumptions.abort("SKIPPED: " + message);
    }
}
