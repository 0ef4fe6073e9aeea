package com.example.threading.load.engine.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The room plan: distinct rooms per client, the same number of members per room, and the shape's checks. */
class TopicsTrafficTest {

    @Test
    void cometdsShapeGivesEachClientTenDistinctRoomsAndEachRoomAHundredMembers() {
        int[] members = new int[100];
        for (int client = 0; client < 1_000; client++) {
            int[] rooms = TopicsTraffic.roomsOf(client, 100, 10);
            assertThat(Arrays.stream(rooms).distinct().count()).as("client %d", client).isEqualTo(10);
            Arrays.stream(rooms).forEach(room -> members[room]++);
        }
        assertThat(members).containsOnly(100);
    }

    @Test
    void roomsThatDoNotDivideEvenlyStayDistinctAndInRange() {
        IntStream.range(0, 50).forEach(client -> {
            int[] rooms = TopicsTraffic.roomsOf(client, 7, 3);
            assertThat(rooms).doesNotHaveDuplicates();
            assertThat(Arrays.stream(rooms).allMatch(room -> room >= 0 && room < 7)).isTrue();
        });
        assertThat(TopicsTraffic.roomsOf(4, 5, 5)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    }

    @Test
    void aMessageIsJsonOfTheAskedSize() throws Exception {
        String message = TopicsTraffic.message(1234, 50);
        assertThat(message).hasSize(50);
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(message).path("n").asLong()).isEqualTo(1234);
        assertThat(TopicsTraffic.message(7, 3)).isEqualTo("{\"n\":7,\"p\":\"\"}");
    }

    @Test
    void aPlanRefusesMoreRoomsPerClientThanRooms() {
        assertThatThrownBy(() -> new TopicsTraffic.Plan(List.of(URI.create("http://127.0.0.1:1/")), "room-", 10, 3, 4, 50, 10, 1, TopicsTraffic.Publishing.BATCH,
                Duration.ofSeconds(1), 2, TopicsTraffic.Transport.LONG_POLL)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rooms per client");
    }

    @Test
    void aPlanRefusesARoomPrefixThatIsNoTopicName() {
        assertThatThrownBy(() -> new TopicsTraffic.Plan(List.of(URI.create("http://127.0.0.1:1/")), "room/", 10, 3, 2, 50, 10, 1, TopicsTraffic.Publishing.BATCH,
                Duration.ofSeconds(1), 2, TopicsTraffic.Transport.LONG_POLL)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("room prefix");
    }

    @Test
    void aPlanRefusesAnEmptyBatch() {
        assertThatThrownBy(() -> new TopicsTraffic.Plan(List.of(URI.create("http://127.0.0.1:1/")), "room-", 10, 3, 2, 50, 10, 0, TopicsTraffic.Publishing.BATCH,
                Duration.ofSeconds(1), 2, TopicsTraffic.Transport.LONG_POLL)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch size");
    }

    @Test
    void aPlanRefusesPublishingOnSocketsWithoutThem() {
        assertThatThrownBy(() -> new TopicsTraffic.Plan(List.of(URI.create("http://127.0.0.1:1/")), "room-", 10, 3, 2, 50, 10, 1,
                TopicsTraffic.Publishing.SOCKET, Duration.ofSeconds(1), 2, TopicsTraffic.Transport.LONG_POLL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the ws transport");
    }

    @Test
    void aBatchsAnswerGivesEachMessageItsIdOrMinusOneWhenTheStreamDidNotTakeIt() {
        assertThat(TopicsTraffic.idsOf(200, "{\"events\":[{\"id\":4},{\"id\":1}]}", 2)).containsExactly(4L, 1L);
        assertThat(TopicsTraffic.idsOf(503, "{\"code\":503,\"message\":\"…\",\"events\":[{\"id\":4},null]}", 2)).containsExactly(4L, -1L);
        assertThat(TopicsTraffic.idsOf(503, "{\"code\":503,\"message\":\"busy\"}", 2)).containsExactly(-1L, -1L);
        assertThat(TopicsTraffic.idsOf(400, "{\"events\":[{\"id\":4},{\"id\":1}]}", 2)).containsExactly(-1L, -1L);
        assertThat(TopicsTraffic.idsOf(200, "not json", 1)).containsExactly(-1L);
        assertThat(TopicsTraffic.idsOf(200, "{\"events\":[{\"id\":4}]}", 2)).as("not one per message").containsExactly(-1L, -1L);
    }
}
