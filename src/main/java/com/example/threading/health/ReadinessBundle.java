package com.example.threading.health;

import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.util.List;

/**
 * {@code GET /ready} on the application port, for a load balancer: {@code 200} while every health check named here
 * that is registered passes, {@code 503} with {@code Retry-After} naming the failing ones otherwise. A load balancer
 * reaches it on the port it already balances, so the admin port (no authentication, tasks) can stay on loopback.
 *
 * <p>Only the named checks count: those whose failure means "this instance cannot serve correctly" (e.g. its shared
 * event stream has lost Redis). Checks that report load (a saturated pool) are left out on purpose: a busy instance
 * answers its excess itself with fast {@code 503}s, while one taken out of rotation for being busy moves its load onto
 * its siblings, which then turn busy too. A named check that is not registered (e.g. the Redis stream's check when
 * the stream is in-process) is skipped.
 */
public final class ReadinessBundle implements ConfiguredBundle<Configuration> {

    /** The path on the application port. */
    public static final String PATH = "/ready";

    private final List<String> checks;

    /** Readiness made of the health checks named {@code checks}, in this order. */
    public ReadinessBundle(String... checks) {
        this.checks = List.of(checks);
    }

    /** Mounts {@link #PATH} on the application servlet context. */
    @Override
    public void run(Configuration configuration, Environment environment) {
        environment.servlets().addServlet("readiness", new ReadinessServlet(environment.healthChecks(), checks,
                environment.getObjectMapper())).addMapping(PATH);
    }
}
