package com.example.threading.load.scenario.probe;

/**
 * One step of the loader-rate search: the rate the loaders offered, the 2xx they got per second, and the
 * server's CPU in % of all cores (NaN when not measured).
 */
record SearchStep(int step, int ratePerSecond, double okPerSecond, double serverCpuPercent) {
}
