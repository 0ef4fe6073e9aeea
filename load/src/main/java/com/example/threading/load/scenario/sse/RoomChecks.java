package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.traffic.DeliveryLedger;
import java.util.List;
import java.util.Set;

/**
 * The delivery checks of a rooms run: every reader's {@link DeliveryLedger} against the ids published to its room.
 * Passed only with nothing lost, duplicated or out of order and every expected delivery made.
 *
 * @param expected   published messages times the readers of their room
 * @param deliveries first receipts
 * @param lost       published ids a reader never received
 * @param duplicated ids a reader received more than once
 * @param outOfOrder ids a reader received after a higher one
 */
record RoomChecks(long expected, long deliveries, long lost, long duplicated, long outOfOrder) {

    /**
     * Checks reader {@code r}'s ledger {@code ledgers.get(r)} against {@code published.get(roomOf[r])}; each ledger is
     * read under its own lock (its reader thread records under the same lock).
     */
    static RoomChecks of(List<DeliveryLedger> ledgers, int[] roomOf, List<Set<Long>> published) {
        long expected = 0;
        long deliveries = 0;
        long lost = 0;
        long duplicated = 0;
        long outOfOrder = 0;
        for (int r = 0; r < ledgers.size(); r++) {
            DeliveryLedger ledger = ledgers.get(r);
            Set<Long> ids = published.get(roomOf[r]);
            synchronized (ledger) {
                expected += ids.size();
                deliveries += ledger.received() - ledger.duplicated();
                lost += ledger.lost(ids);
                duplicated += ledger.duplicated();
                outOfOrder += ledger.outOfOrder();
            }
        }
        return new RoomChecks(expected, deliveries, lost, duplicated, outOfOrder);
    }

    /** Nothing lost, duplicated or out of order, and every expected delivery made. */
    boolean passed() {
        return lost == 0 && duplicated == 0 && outOfOrder == 0 && deliveries == expected;
    }
}
