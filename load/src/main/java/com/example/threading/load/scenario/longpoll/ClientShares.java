package com.example.threading.load.scenario.longpoll;

/**
 * How many client processes a long-poll run uses and how the clients are split among them. One socket per client, and
 * this sandbox allows 20,000 open files per process: {@value #CLIENTS_PER_PROCESS} clients per process leaves room for
 * the JVM's own files and keeps each process's heap and GC small.
 */
final class ClientShares {

    /** Most clients one process is given when the split is automatic. */
    static final int CLIENTS_PER_PROCESS = 9_000;

    private ClientShares() {
    }

    /** Child processes for {@code clients}: {@code asked} when positive; else 0 (this JVM) up to the limit, and enough children beyond it. */
    static int processes(int asked, int clients) {
        if (asked > 0) {
            return asked;
        }
        return clients <= CLIENTS_PER_PROCESS ? 0 : (clients + CLIENTS_PER_PROCESS - 1) / CLIENTS_PER_PROCESS;
    }

    /** {@code clients} split over {@code processes} as evenly as possible (the first ones get one more). */
    static int[] split(int clients, int processes) {
        int[] shares = new int[processes];
        for (int i = 0; i < processes; i++) {
            shares[i] = clients / processes + (i < clients % processes ? 1 : 0);
        }
        return shares;
    }
}
