package com.example.threading.load.scenario.wave;

import com.example.threading.load.engine.http.SimpleHttp;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the /fanout part measured: for each via (in the order asked), its calls in order.
 */
record FanoutCalls(int n, int ms, Map<String, List<Call>> byVia) {

    /** One /fanout request: the wave it belonged to, the answer (or failure), and its time seen by the client. */
    record Call(int wave, SimpleHttp.Answer answer, double clientMs) {
    }

    FanoutCalls {
        Map<String, List<Call>> copy = new LinkedHashMap<>();
        byVia.forEach((via, calls) -> copy.put(via, List.copyOf(calls)));
        byVia = Collections.unmodifiableMap(copy);
    }
}
