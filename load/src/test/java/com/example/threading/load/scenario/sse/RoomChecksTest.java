package com.example.threading.load.scenario.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.traffic.DeliveryLedger;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rooms run's checks fail on a ledger that lost, repeated or reordered a message, and pass on a clean one. */
class RoomChecksTest {

    /** Room 0 published ids 1 to 4; room 1 ids 11 to 12 (after its cursor 10). */
    private static final List<Set<Long>> PUBLISHED = List.of(Set.of(1L, 2L, 3L, 4L), Set.of(11L, 12L));
    private static final int[] ROOM_OF = {0, 1};

    @Test
    void cleanLedgersPass() {
        RoomChecks checks = RoomChecks.of(List.of(ledger(0, 1, 2, 3, 4), ledger(10, 11, 12)), ROOM_OF, PUBLISHED);
        assertThat(checks).isEqualTo(new RoomChecks(6, 6, 0, 0, 0));
        assertThat(checks.passed()).isTrue();
    }

    @Test
    void aLostMessageFails() {
        RoomChecks checks = RoomChecks.of(List.of(ledger(0, 1, 2, 4), ledger(10, 11, 12)), ROOM_OF, PUBLISHED);
        assertThat(checks.lost()).isEqualTo(1);
        assertThat(checks.deliveries()).isEqualTo(5);
        assertThat(checks.passed()).isFalse();
    }

    @Test
    void aDuplicateFails() {
        RoomChecks checks = RoomChecks.of(List.of(ledger(0, 1, 2, 3, 4), ledger(10, 11, 11, 12)), ROOM_OF, PUBLISHED);
        assertThat(checks.duplicated()).isEqualTo(1);
        assertThat(checks.lost()).isZero();
        assertThat(checks.passed()).isFalse();
    }

    @Test
    void aMessageAtOrBeforeTheReadersCursorCountsAsADuplicate() {
        RoomChecks checks = RoomChecks.of(List.of(ledger(0, 1, 2, 3, 4), ledger(10, 10, 11, 12)), ROOM_OF, PUBLISHED);
        assertThat(checks.duplicated()).isEqualTo(1);
        assertThat(checks.passed()).isFalse();
    }

    @Test
    void outOfOrderFails() {
        RoomChecks checks = RoomChecks.of(List.of(ledger(0, 1, 3, 2, 4), ledger(10, 11, 12)), ROOM_OF, PUBLISHED);
        assertThat(checks.outOfOrder()).isEqualTo(1);
        assertThat(checks.lost()).isZero();
        assertThat(checks.duplicated()).isZero();
        assertThat(checks.passed()).isFalse();
    }

    private static DeliveryLedger ledger(long cursor, long... ids) {
        DeliveryLedger ledger = new DeliveryLedger(cursor);
        for (long id : ids) {
            ledger.receive(id);
        }
        return ledger;
    }
}
