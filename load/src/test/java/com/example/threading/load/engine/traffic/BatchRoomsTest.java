package com.example.threading.load.engine.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rooms of each batch: round-robin for one message, drawn with a fixed seed for more, the same in every run. */
class BatchRoomsTest {

    @Test
    void batchesOfOneGoRoundRobinOverTheRooms() {
        BatchRooms rooms = new BatchRooms(3, 1);
        int[] sent = new int[7];
        for (int i = 0; i < sent.length; i++) {
            int[] batch = rooms.next();
            assertThat(batch).hasSize(1);
            sent[i] = batch[0];
        }
        assertThat(sent).containsExactly(0, 1, 2, 0, 1, 2, 0);
    }

    @Test
    void largerBatchesAreDrawnInRangeAndTheSameInEveryRun() {
        BatchRooms first = new BatchRooms(100, 10);
        BatchRooms second = new BatchRooms(100, 10);
        for (int b = 0; b < 1_000; b++) {
            int[] batch = first.next();
            assertThat(batch).hasSize(10).containsExactly(second.next());
            assertThat(Arrays.stream(batch).allMatch(room -> room >= 0 && room < 100)).isTrue();
        }
    }

    @Test
    void aDrawnBatchGivesAClientNoneOneOrSeveralOfItsRoomsAsCometDsDoes() {
        // Client 0 of CometD's shape is in rooms 0, 10, ..., 90: round-robin would give it exactly one message per batch.
        Set<Integer> clientRooms = new HashSet<>();
        Arrays.stream(TopicsTraffic.roomsOf(0, 100, 10)).forEach(clientRooms::add);
        BatchRooms rooms = new BatchRooms(100, 10);
        int[] batchesWith = new int[11];
        for (int b = 0; b < 1_000; b++) {
            batchesWith[(int) Arrays.stream(rooms.next()).filter(clientRooms::contains).count()]++;
        }
        assertThat(batchesWith[0]).as("batches without a message for the client").isPositive();
        assertThat(batchesWith[1]).as("batches with one").isPositive();
        assertThat(Arrays.stream(batchesWith, 2, 11).sum()).as("batches with several").isPositive();
    }

    @Test
    void refusesEmptyRoomsOrBatches() {
        assertThatThrownBy(() -> new BatchRooms(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchRooms(5, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
