package com.example.threading.load.scenario.cost;

import java.util.List;

/**
 * One endpoint's figures as results.json holds them: what was requested, what became of it ({@code measured}, or why
 * not), the 2xx answers per second, the server's CPU per 2xx answer in microseconds and its ratio to /ping's, the
 * server's CPU in % of all cores during the stretch, h2load's counts, the stretch's length, the server's CPU time over
 * it, the events published during it (long poll), and h2load's command line. A figure is null where there is none.
 */
record EndpointCost(String endpoint, String name, String outcome, Double requestsPerSecond, Double serverCpuMicrosPerRequest,
                    Double ratioToPing, Double serverCpuPercent, Long answers2xx, Long non2xx, Long failed, Double seconds,
                    Long serverCpuMicros, Long publishes, List<String> command) {

    /** What {@link #outcome} says of a row whose figures count. */
    static final String MEASURED = "measured";
}
