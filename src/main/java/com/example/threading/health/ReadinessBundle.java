package com.example.threading.health;

import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.time.Duration;
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
 * the stream is in-process) is skipped. The checks run at most once per max age (1 s unless told otherwise), one
 * caller at a time, whatever the rate of probes: a check can be costly (the JVM's deadlock detection stops every
 * thread at a safepoint) and {@code /ready} is open to anyone who reaches the port.
 */
public final class ReadinessBundle implements ConfiguredBundle<Configuration> {

    /** The path on the application port. */
    public static final String PATH = "/ready";

    /** How long a verdict answers probes before the checks run again, unless told otherwise. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(1);

    private final Duration maxAge;
    private final List<String> checks;

    /** Readiness made of the health checks named {@code checks}, in this order, run at most once a second. */
    public ReadinessBundle(String... checks) {
        this(DEFAULT_MAX_AGE, checks);
    }

    /** Readiness made of the health checks named {@code checks}, run again once a verdict is {@code maxAge} old. */
    public ReadinessBundle(Duration maxAge, String... checks) {
        this.maxAge = maxAge;
        this.checks = List.of(checks);
    }

    /** Mounts {@link #PATH} on the application servlet context. */
    @Override
    public void run(Configuration configuration, Environment environment) {
        Readiness readiness = new Readiness(environment.healthChecks(), checks, maxAge.toNanos(), System::nanoTime);
        environment.servlets().addServlet("readiness", new ReadinessServlet(readiness, environment.getObjectMapper()))
                .addMapping(PATH);
    }
}
