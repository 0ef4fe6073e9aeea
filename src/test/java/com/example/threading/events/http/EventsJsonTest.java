package com.example.threading.events.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each event's JSON made once for every client it reaches. */
class EventsJsonTest {

    @Test
    void theClientsOfAnEventShareItsJsonMadeOnceWhateverAnswerCarriesIt() {
        EventsJson<byte[]> eventJson = new EventsJson<>(new JsonResponses(new ObjectMapper().findAndRegisterModules())::bytes);
        Event one = event(1);
        Event two = event(2);

        List<byte[]> first = eventJson.of(List.of(one, two));
        assertThat(eventJson.of(List.of(two))).as("another answer with the same event: the same bytes")
                .containsExactly(first.get(1));
        Event equalButAnother = event(1);
        assertThat(eventJson.of(List.of(equalButAnother)).get(0)).as("another event object: made again")
                .isNotSameAs(first.get(0)).isEqualTo(first.get(0));
        assertThat(new String(first.get(0), StandardCharsets.UTF_8)).startsWith("{\"id\":1,\"topic\":\"a\"");
    }

    @Test
    void anEventIsStillKnownAfterHundredsOfLaterOnes() {
        // Under load a client's turn comes hundreds of events after its event's: the event must not be made again.
        AtomicInteger made = new AtomicInteger();
        EventsJson<String> eventJson = new EventsJson<>(event -> "e" + event.id() + "#" + made.incrementAndGet());
        List<Event> events = new ArrayList<>();
        for (int id = 1; id <= 1000; id++) {
            events.add(event(id));
            eventJson.of(List.of(events.get(id - 1)));
        }
        assertThat(eventJson.of(List.of(events.get(0), events.get(999)))).containsExactly("e1#1", "e1000#1000");
        assertThat(made).hasValue(1000);
    }

    private static Event event(long id) {
        return new Event(id, "a", Instant.EPOCH, JsonNodeFactory.instance.objectNode());
    }
}
