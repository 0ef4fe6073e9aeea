/**
 * The HTTP drivers: {@link com.example.threading.load.engine.http.Load} (one fixed-rate phase from one client):
 * {@link com.example.threading.load.engine.http.GeneratedLoad} (open-model phases from Jetty's load generator, paced by
 * a {@link com.example.threading.load.engine.http.Schedule} so latency is measured from the intended send time) and
 * {@link com.example.threading.load.engine.http.H2loadLoad} (an h2load process, see
 * {@link com.example.threading.load.engine.http.H2load}, its per-request log recorded alike);
 * {@link com.example.threading.load.engine.http.H2loadStretch} (an endpoint under h2load in a closed loop, the server's
 * CPU read over exactly the stretch whose requests h2load counts); {@link com.example.threading.load.engine.http.SimpleHttp}
 * (one-off requests, admin tasks, events); and an independent client to check the tool's figures against
 * ({@link com.example.threading.load.engine.http.CrossCheck}, h2load).
 *
 * <p>May depend on: {@code engine.recording} and {@code service}.
 */
package com.example.threading.load.engine.http;
