/**
 * What tests of this service share: a loopback HTTP client ({@link com.example.threading.testing.LoopbackHttp},
 * answers as {@link com.example.threading.testing.LoopbackHttp.Answer}), raw connections for clients that
 * misbehave ({@link com.example.threading.testing.RawHttpConnection}), reading metrics and health from the admin
 * port ({@link com.example.threading.testing.AdminMetrics}), what the service logs
 * ({@link com.example.threading.testing.CapturedLog}), waiting for a condition with a deadline
 * ({@link com.example.threading.testing.Await}), Jetty's own count of requests in flight
 * ({@link com.example.threading.testing.JettyInFlight}), and the repository's own files read as text
 * ({@link com.example.threading.testing.RepositoryFiles}).
 *
 * <p>Nothing here starts a server: tests do that themselves with Dropwizard's {@code DropwizardAppExtension} or
 * {@code DropwizardTestSupport} ({@code ConfigOverride.randomPorts()}), and pass the ports in. Timeouts are
 * generous (the build machine has 2 cores shared with other builds); real figures belong in {@code load/}.
 */
package com.example.threading.testing;
