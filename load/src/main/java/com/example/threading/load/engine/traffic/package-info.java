/**
 * The experiments' traffic shapes: {@link com.example.threading.load.engine.traffic.PollingClients} (closed-loop long
 * polls), {@link com.example.threading.load.engine.traffic.ClusterTraffic} and
 * {@link com.example.threading.load.engine.traffic.DeliveryLedger} (publishers and followers on several instances,
 * per-client delivery checks), {@link com.example.threading.load.engine.traffic.TopologyTraffic} and
 * {@link com.example.threading.load.engine.traffic.RotationWatch} (the topology scenario's traffic and the balancer's
 * view), {@link com.example.threading.load.engine.traffic.TopicsTraffic} (chat rooms on the long-poll's topics, a ledger
 * per client and room; over WebSockets its members are {@code SocketMembers}, one {@code SocketMember} per client) and {@link com.example.threading.load.engine.traffic.EventPublisher} (events at a fixed rate
 * beside a load).
 *
 * <p>May depend on: {@code engine.recording}, {@code engine.http} and {@code service}.
 */
package com.example.threading.load.engine.traffic;
