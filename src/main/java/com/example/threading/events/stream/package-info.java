/**
 * The stream SPI: where events come from and go to, the same for every transport and every store. Publishers hand data
 * to an {@link com.example.threading.events.stream.EventSink} (one {@link com.example.threading.events.stream.NewEvent}
 * or several); the stream numbers each event per topic and delivers it, in id order, to the one
 * {@link com.example.threading.events.stream.EventSubscriber} of its
 * {@link com.example.threading.events.stream.EventSource} (the hub); a shared stream's
 * {@link com.example.threading.events.stream.EventArchive} answers the cursors the hub's rings cannot, and its
 * {@link com.example.threading.events.stream.TickGate} lets one instance of a cluster tick.
 * {@link com.example.threading.events.stream.EventStream} holds the four; topic names are
 * {@link com.example.threading.events.stream.TopicNames}.
 *
 * <p>Threads: the contracts are the interfaces' own. A sink and an archive never block their caller (a Jetty worker)
 * and complete their stages within a bounded time; a source calls its subscriber from one thread at a time.
 * {@link com.example.threading.events.stream.InProcessEventStream} is sink and source in one JVM: it numbers an event
 * under its lock and delivers it on the publishing thread.
 *
 * <p>Imports nothing of the servlet API, Jetty or Dropwizard, nor of the other packages of the wing. A store plugs in
 * as a sub-package beside {@code redis} with a {@link com.example.threading.events.stream.config.EventStreamFactory}.
 */
package com.example.threading.events.stream;
