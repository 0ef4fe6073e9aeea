package com.example.threading.events.http;

import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.TopicNames;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A poll's query, checked: which topics after which cursors, and how long to wait.
 * <ul>
 *   <li>no {@code topic}: the {@value TopicNames#DEFAULT} topic, after {@code after} (absent: the next event);</li>
 *   <li>one {@code topic=T}: topic T after {@code after}; or {@code topic=T:N}, after N;</li>
 *   <li>several, {@code topic=a:3&topic=b:0&topic=c}: each after its own cursor ({@code c}: its next event), at most
 *       {@code maxTopics}; {@code after} then has no topic to belong to and is refused.</li>
 * </ul>
 * A cursor may name the epoch of the history it was read from: {@code epoch=E} beside {@code after} (one topic), or
 * {@code topic=T:N:E}.
 *
 * @param topics    the topics in the order asked, each with its cursor (null: the next event)
 * @param timeoutMs how long the poll may wait
 */
public record PollParameters(List<TopicCursor> topics, long timeoutMs) {

    private static final Pattern EPOCH = Pattern.compile("[A-Za-z0-9-]{1,32}");

    /** The one topic with its cursor when the poll asked for one ({@code after} for a single-topic poll). */
    Long after() {
        return topics.get(0).after();
    }

    /** The names of the topics asked, in the order asked. */
    List<String> topicNames() {
        return topics.stream().map(TopicCursor::topic).toList();
    }

    /** These parameters with a wait of at most {@code maxMs} (e.g. until the caller's credentials end). */
    PollParameters waitingAtMost(long maxMs) {
        return maxMs >= timeoutMs ? this : new PollParameters(topics, maxMs);
    }

    /** Parses and checks the query; throws {@link IllegalArgumentException} with a message fit for a 400. */
    static PollParameters parse(HttpServletRequest request, long defaultTimeoutSeconds, long maxTimeoutSeconds, int maxTopics) {
        return parse(request.getParameterValues("topic"), request.getParameter("after"), request.getParameter("epoch"),
                request.getParameter("timeout"), defaultTimeoutSeconds, maxTimeoutSeconds, maxTopics);
    }

    /** Parses and checks the raw values (null when absent); throws {@link IllegalArgumentException} for a 400. */
    static PollParameters parse(String afterText, String timeoutText, long defaultTimeoutSeconds, long maxTimeoutSeconds) {
        return parse(null, afterText, null, timeoutText, defaultTimeoutSeconds, maxTimeoutSeconds, 1);
    }

    /** Parses and checks the raw values (null when absent); throws {@link IllegalArgumentException} for a 400. */
    public static PollParameters parse(String[] topicTexts, String afterText, String epochText, String timeoutText,
                                long defaultTimeoutSeconds, long maxTimeoutSeconds, int maxTopics) {
        Long after = afterText == null ? null : cursor("after", afterText);
        String epoch = epochText == null ? null : epoch("epoch", epochText);
        List<TopicCursor> topics = new ArrayList<>();
        if (topicTexts == null || topicTexts.length == 0) {
            topics.add(new TopicCursor(TopicNames.DEFAULT, after, epoch));
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
                if (after != null || epoch != null) {
                    if (topicTexts.length > 1) {
                        throw new IllegalArgumentException(
                                "with several topics, give each its own cursor (topic=T:N or T:N:E), not after or epoch");
                    }
                    if (after != null && topic.after() != null || epoch != null && topic.epoch() != null) {
                        throw new IllegalArgumentException("give the cursor once: topic=T:N:E, or after=N and epoch=E, not both");
                    }
                    topic = new TopicCursor(topic.topic(), after != null ? after : topic.after(),
                            epoch != null ? epoch : topic.epoch());
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

    /** {@code T} (its next event), {@code T:N} (after N) or {@code T:N:E} (after N of epoch E). */
    private static TopicCursor topicCursor(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return new TopicCursor(TopicNames.check(text), null);
        }
        String topic = TopicNames.check(text.substring(0, colon));
        String rest = text.substring(colon + 1);
        int epochColon = rest.indexOf(':');
        String cursorText = epochColon < 0 ? rest : rest.substring(0, epochColon);
        String epoch = epochColon < 0 ? null : epoch("the epoch of topic " + topic, rest.substring(epochColon + 1));
        return new TopicCursor(topic, cursor("the cursor of topic " + topic, cursorText), epoch);
    }

    /** An epoch as answers give it: 1 to 32 letters, digits or dashes. */
    private static String epoch(String name, String text) {
        if (!EPOCH.matcher(text).matches()) {
            throw new IllegalArgumentException(name + " must be 1 to 32 letters, digits or '-', as an answer's epoch");
        }
        return text;
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
