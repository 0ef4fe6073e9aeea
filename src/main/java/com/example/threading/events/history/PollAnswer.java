package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a poll is answered with, from the news of its topics: a poll of one topic gets that topic's
 * {@link EventBatch} ({@code {"events":[...],"missed":false,"lastId":7}}, as before topics existed); a poll of several
 * gets a {@link TopicsBatch} ({@code {"events":[...],"missed":false,"cursors":{"a":4,"b":0},"epochs":{"a":"..."}}}).
 */
public final class PollAnswer {

    private PollAnswer() {
    }

    /**
     * The answer for a poll that asked {@code asked}, read after {@code cursors} (one per topic), given the news of the
     * topics that have some ({@code news}, by topic; at least one).
     */
    public static Object of(List<TopicCursor> asked, Map<String, Long> cursors, Map<String, EventBatch> news) {
        if (asked.size() == 1) {
            return news.get(asked.get(0).topic());
        }
        List<Event> events = new ArrayList<>();
        Map<String, Long> next = new LinkedHashMap<>();
        Map<String, String> epochs = new LinkedHashMap<>();
        boolean missed = false;
        for (TopicCursor topic : asked) {
            EventBatch batch = news.get(topic.topic());
            if (batch == null) {
                next.put(topic.topic(), cursors.get(topic.topic()));
            } else {
                events.addAll(batch.events());
                missed |= batch.missed();
                next.put(topic.topic(), batch.lastId());
                if (batch.epoch() != null) {
                    epochs.put(topic.topic(), batch.epoch());
                }
            }
        }
        return new TopicsBatch(events, missed, next, epochs);
    }
}
