package com.example.threading.load.scenario.cost;

/**
 * The flame graphs of one endpoint's profile stretches, the CPU one and the allocation one.
 */
record FlameGraphs(Endpoint endpoint, Graph cpu, Graph allocations) {

    /** One flame graph: its file in the report folder, or why it was not written ("" when it was). */
    record Graph(String file, String failure) {

        /** A written graph. */
        static Graph written(String file) {
            return new Graph(file, "");
        }

        /** A graph that was not written, and why. */
        static Graph failed(String file, String why) {
            return new Graph(file, why);
        }

        /** The report's cell: a link to the graph, or why there is none. */
        String cell() {
            return failure.isEmpty() ? "[" + file + "](" + file + ")" : "not written: " + failure.replace("|", "\\|").replace('\n', ' ');
        }
    }
}
