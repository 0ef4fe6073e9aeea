package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.http.ClientConnections;
import com.example.threading.load.engine.jvm.GcPauses;

/**
 * One process the long-poll clients ran in (the tool's own JVM, or a child JVM): its share of the clients, what their
 * sockets did, its CPU while polling (in % of all cores) and its GC pauses meanwhile.
 */
record ClientProcess(String name, long pid, int clients, ClientConnections connections, double cpuPercent, GcPauses pauses) {
}
