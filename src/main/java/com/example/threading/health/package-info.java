/**
 * Infrastructure for a load balancer: readiness on the application port, {@code GET /ready}, made of the health checks
 * the application names (e.g. the shared event stream's connection to Redis), not of those that report load. Depends
 * on no pattern package; the application passes the check names in.
 *
 * <p>Threads: the bundle registers on the start-up thread; each probe runs the named checks on the Jetty thread that
 * serves it.
 *
 * <p>Entry class: {@link com.example.threading.health.ReadinessBundle}
 * ({@code bootstrap.addBundle(new ReadinessBundle("events-stream", "deadlocks"))}); its path should also be left out
 * of admission control, so a busy instance still answers its probe. To copy: the package. The page is
 * docs/operations.md, "Health: liveness and readiness".
 */
package com.example.threading.health;
