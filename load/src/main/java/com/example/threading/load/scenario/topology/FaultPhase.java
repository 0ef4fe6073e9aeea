package com.example.threading.load.scenario.topology;

import com.example.threading.load.engine.traffic.TopologyTraffic;
import java.util.List;

/**
 * One measured phase: a baseline ({@code fault} null: "direct" to the instances or through the balancer) or a fault,
 * what was done ({@code applied}), the traffic's result and the balancer's timings.
 */
record FaultPhase(String name, Fault fault, String applied, TopologyTraffic.Result traffic, List<RotationFigure> rotation) {
}
