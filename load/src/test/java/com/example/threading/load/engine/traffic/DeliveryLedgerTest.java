package com.example.threading.load.engine.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One follower's ledger: lost, duplicated and out-of-order events against what was published. */
class DeliveryLedgerTest {

    @Test
    void everyPublishedEventOnceInOrderIsClean() {
        DeliveryLedger ledger = new DeliveryLedger(10);
        for (long id = 11; id <= 15; id++) {
            assertThat(ledger.receive(id)).isTrue();
        }
        assertThat(ledger.lost(List.of(11L, 12L, 13L, 14L, 15L))).isZero();
        assertThat(ledger.duplicated()).isZero();
        assertThat(ledger.outOfOrder()).isZero();
        assertThat(ledger.lastReceived()).isEqualTo(15);
    }

    @Test
    void aRepeatIsDuplicatedAStepBackIsOutOfOrderAndAHoleIsLost() {
        DeliveryLedger ledger = new DeliveryLedger(10);
        ledger.receive(11);
        ledger.receive(13);
        assertThat(ledger.receive(11)).isFalse(); // again, and after 13
        ledger.receive(10); // at the start cursor: the client had it already
        assertThat(ledger.duplicated()).isEqualTo(2);
        assertThat(ledger.outOfOrder()).isEqualTo(2);
        assertThat(ledger.lost(List.of(11L, 12L, 13L))).isEqualTo(1);
        assertThat(ledger.received()).isEqualTo(4);
    }

    @Test
    void idsPublishedBeforeTheStartAreNotCountedLost() {
        DeliveryLedger ledger = new DeliveryLedger(10);
        ledger.receive(11);
        assertThat(ledger.lost(List.of(9L, 10L, 11L))).isZero();
    }

    @Test
    void idsTheCursorMovedPastWithoutReceivingThemAreSkippedTheOthersAreStillAhead() {
        DeliveryLedger ledger = new DeliveryLedger(10);
        ledger.receive(11);
        ledger.receive(14); // a missed answer moved the cursor to 14: 12 and 13 were skipped
        List<Long> published = List.of(11L, 12L, 13L, 14L, 15L, 16L);
        assertThat(ledger.lost(published)).isEqualTo(4);
        assertThat(ledger.skipped(published, 14)).isEqualTo(2);
        assertThat(ledger.skipped(published, 16)).as("a cursor past 15 and 16 skipped them too").isEqualTo(4);
    }
}
