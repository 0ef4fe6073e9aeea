/**
 * {@code topology}: the documented deployment (deploy/docker-compose.yml, the Dockerfile, deploy/haproxy.cfg) rebuilt
 * without Docker and put through faults. The target layer's {@code Topology} runs every compose service on a host of
 * its own (a network namespace); {@code DeploymentChecks} tries what the documentation says (publishing with and
 * without the token, polling through the balancer, readiness, the closed admin port, HAProxy's file-descriptor limit);
 * the engine's {@code TopologyTraffic} then drives publishers, followers and /work requests, first direct to the
 * instances and through the balancer (baselines), then through the balancer while each {@link
 * com.example.threading.load.scenario.topology.Fault} hits a host, and {@code RotationWatch} times the balancer.
 *
 * <p>Entry: {@link com.example.threading.load.scenario.topology.TopologyScenario}. Measured into {@code FaultPhase},
 * {@code RotationFigure} and {@code DeploymentCheck} records; {@code TopologyView} builds the tables, the goals, the
 * plot and results.json's {@code topology}.
 *
 * <p>May depend on: {@code scenario}, {@code report}, {@code engine}, {@code service}; no other experiment.
 */
package com.example.threading.load.scenario.topology;
