package com.example.threading.load.scenario.cost;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One batch row's figures as results.json holds them: the shape and its clients, the measured rounds, the medians (and
 * extremes) of the server's CPU per answer in µs and of the publish to the last receipt in ms, and what became of it
 * ({@code measured}, or why not). A figure is null where there is none.
 */
record BatchRow(String name, String label, int clients, int rounds, Double serverCpuMicrosPerAnswer, Double minMicros, Double maxMicros,
                Double lastReceiptMs, String outcome) {

    /** The row of {@code rounds} of {@code clients} clients of {@code shape}; {@code failure} non-empty when it could not be measured. */
    static BatchRow of(Batch.Shape shape, int clients, List<Batch.Round> rounds, String failure) {
        String label = String.format(Locale.ROOT, "one event to %,d %s", clients, switch (shape) {
            case POLLS -> "parked long-polls (GET /events)";
            case STREAMS -> "SSE streams (GET /events/stream)";
            case SOCKETS -> "WebSockets (GET /events/ws)";
        });
        String name = shape.name + "-" + clients;
        if (!failure.isEmpty() || rounds.isEmpty()) {
            return new BatchRow(name, label, clients, rounds.size(), null, null, null, null,
                    failure.isEmpty() ? "not measured: no round within the time limit" : failure);
        }
        double[] micros = rounds.stream().mapToDouble(Batch.Round::serverCpuMicrosPerAnswer).sorted().toArray();
        double[] last = rounds.stream().mapToDouble(Batch.Round::lastReceiptMs).sorted().toArray();
        return new BatchRow(name, label, clients, rounds.size(), median(micros), micros[0], micros[micros.length - 1], median(last),
                EndpointCost.MEASURED);
    }

    /** Whether the row has figures. */
    boolean measured() {
        return EndpointCost.MEASURED.equals(outcome);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    @Override
    public String toString() {
        return name + Arrays.asList(rounds, serverCpuMicrosPerAnswer, outcome);
    }
}
