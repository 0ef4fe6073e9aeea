package com.example.threading.load.scenario.topology;

import java.util.OptionalDouble;

/**
 * How long the balancer took for one step of a fault: e.g. {@code app1} "out of rotation after the kill" in 2.1 s,
 * judged against {@code boundSeconds} (two check intervals); empty when it did not happen within the phase.
 */
record RotationFigure(String server, String step, OptionalDouble seconds, double boundSeconds, boolean judged) {

    /** Whether it happened within the bound (false when it did not happen). */
    boolean withinBound() {
        return seconds.isPresent() && seconds.getAsDouble() <= boundSeconds;
    }
}
