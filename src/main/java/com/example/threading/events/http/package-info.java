/**
 * What the events wing's HTTP transports and publishing share: {@link com.example.threading.events.http.EventsHttp}
 * (the hub, the JSON, the access gate and the {@code Retry-After} every transport needs),
 * {@link com.example.threading.events.http.EventRoutes} (each transport adds its paths and methods; one servlet per
 * path answers any other method {@code 405}), the poll query ({@link com.example.threading.events.http.PollParameters},
 * {@link com.example.threading.events.http.PollLimits}), the access gate every subscription and publish passes first
 * ({@link com.example.threading.events.http.AccessGate}), the JSON bodies
 * ({@link com.example.threading.events.http.JsonResponses}, {@link com.example.threading.events.http.JsonReply}),
 * each event's JSON made once for every client it reaches ({@link com.example.threading.events.http.EventsJson}) and a
 * write that never blocks its caller
 * ({@link com.example.threading.events.http.NonBlockingWrite}).
 *
 * <p>Threads: the routes are built on the start-up thread; everything else is called from Jetty's request threads,
 * and a non-blocking write from any thread (see its own contract).
 */
package com.example.threading.events.http;
