package com.example.threading.longpoll;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A poll's query, checked: which topics after which cursors, and how long to wait.
 * <ul>
 *   <li>no {@code topic}: the {@value TopicNames#DEFAULT} topic, after {@code after} (absent: the next event);</li>
 *   <li>one {@code topic=T}: topic T after {@code after}; or {@code topic=T:N}, after N;</li>
 *   <li>several, {@code topic=a:3&topic=b:0&topic=c}: each after its own cursor ({@code c}: its next event), at most
 *       {@code maxTopics}; {@code after} then has no topic to belong to and is refused.</li>
 * </ul>
 *
 * @param topics    the topics in the order asked, each with its cursor (null: the next event)
 * @param timeoutMs how long the poll may wait
 */
record PollParameters(List<TopicCursor> topics, long timeoutMs) {

    /** The one topic with its cursor when the poll asked for one ({@code after} for a single-topic poll). */
    Long after() {
        return topics.get(0).after();
    }

    /** Parses and checks the query; throws {@link IllegalArgumentException} with a message fit for a 400. */
    static PollParameters parse(HttpServletRequest request, long defaultTimeoutSeconds, long maxTimeoutSeconds, int maxTopics) {
        return parse(request.getParameterValues("topic"), request.getParameter("after"), request.getParameter("timeout"),
                defaultTimeoutSeconds, maxTimeoutSeconds, maxTopics);
    }

    /** Parses and checks the raw values (null when absent); throws {@link IllegalArgumentException} for a 400. */
    static PollParameters parse(String afterText, String timeoutText, long defaultTimeoutSeconds, long maxTimeoutSeconds) {
        return parse(null, afterText, timeoutText, defaultTimeoutSeconds, maxTimeoutSeconds, 1);
    }

    /** Parses and checks the raw values (null when absent); throws {@link IllegalArgumentException} for a 400. */
    static PollParameters parse(String[] topicTexts, String afterText, String timeoutText, long defaultTimeoutSeconds,
                                long maxTimeoutSeconds, int maxTopics) {
        Long after = afterText == null ? null : cursor("after", afterText);
        List<TopicCursor> topics = new ArrayList<>();
        if (topicTexts == null || topicTexts.length == 0) {
            topics.add(new TopicCursor(TopicNames.DEFAULT, after));
        } else if (topicTexts.length > maxTopics) {
            throw new IllegalArgumentException("a poll reads at most " + maxTopics + " topics (events.maxTopicsPerPoll), asked "
                    + topicTexts.length);
        } else {
            Set<String> seen = new HashSet<>();
            for (String text : topicTexts) {
                TopicCursor topic = topicCursor(text);
                if (!seen.add(topic.topic())) {
                    throw new IllegalArgumentException("topic " + topic.topic() + " is asked twice");
                }
                if (after != null) {
                    if (topicTexts.length > 1) {
                        throw new IllegalArgumentException("with several topics, give each its own cursor (topic=T:N), not after");
                    }
                    if (topic.after() != null) {
                        throw new IllegalArgumentException("give the cursor once: topic=T:N or after=N, not both");
                    }
                    topic = new TopicCursor(topic.topic(), after);
                }
                topics.add(topic);
            }
        }
        long timeoutSeconds = defaultTimeoutSeconds;
        if (timeoutText != null) {
            timeoutSeconds = parseLong("timeout", timeoutText);
            if (timeoutSeconds < 1 || timeoutSeconds > maxTimeoutSeconds) {
                throw new IllegalArgumentException(
                        "timeout must be between 1 and " + maxTimeoutSeconds + " seconds, was " + timeoutText);
            }
        }
        return new PollParameters(List.copyOf(topics), timeoutSeconds * 1000);
    }

    /** {@code T} (its next event) or {@code T:N} (after N). */
    private static TopicCursor topicCursor(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            return new TopicCursor(TopicNames.check(text), null);
        }
        return new TopicCursor(TopicNames.check(text.substring(0, colon)), cursor("the cursor of topic " + text.substring(0, colon),
                text.substring(colon + 1)));
    }

    private static long cursor(String name, String text) {
        long cursor = parseLong(name, text);
        if (cursor < 0) {
            throw new IllegalArgumentException(name + " must be an event id >= 0, was " + text);
        }
        return cursor;
    }

    private static long parseLong(String name, String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + text + "'");
        }
    }
}
