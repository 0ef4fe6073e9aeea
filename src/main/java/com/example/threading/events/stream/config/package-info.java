/**
 * The {@code events.stream} section of config.yml: its {@code type} names an
 * {@link com.example.threading.events.stream.config.EventStreamFactory}, which builds the
 * {@link com.example.threading.events.stream.EventStream} and registers what it needs with Dropwizard (lifecycle,
 * health checks, metrics). {@code in-process} is built in
 * ({@link com.example.threading.events.stream.config.InProcessStreamFactory}); a plug-in adds its own type from its
 * bundle (e.g. {@code redis}), so nothing here knows it. Runs on the start-up thread only.
 */
package com.example.threading.events.stream.config;
