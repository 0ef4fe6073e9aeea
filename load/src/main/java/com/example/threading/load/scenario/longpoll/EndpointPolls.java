package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.recording.PhaseResult;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What the clients' polls of one endpoint did: the load phase (every poll's outcome and latency), whether
 * every client finished its iterations before the time limit, and what the answers held: events received,
 * answers flagged missed (cursor fell out of the history), 204s (no event within the poll's timeout) and
 * answers that were not the documented JSON; and the processes the clients ran in (the tool's own JVM, or child JVMs).
 *
 * <p>Nobody may write to its histogram copy once it is made.
 */
record EndpointPolls(String endpoint, PhaseResult phase, Histogram latencies, boolean complete,
                     long events, long missed, long noEvent, long unparsable, List<ClientProcess> clients) {

    /** Copies the client processes. */
    EndpointPolls {
        clients = List.copyOf(clients);
    }
}
