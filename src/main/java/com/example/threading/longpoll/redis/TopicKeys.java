package com.example.threading.longpoll.redis;

/**
 * The Redis keys of each topic, under the configured prefix ({@code events.stream.redis.key}): the stream
 * {@code <prefix>:{<topic>}} and its id counter {@code <prefix>:{<topic>}:last-id}. The braces are a Redis Cluster hash
 * tag: a topic's two keys always share a hash slot (so one script may touch both), and different topics spread over
 * the slots.
 */
final class TopicKeys {

    private final String prefix;

    TopicKeys(String prefix) {
        this.prefix = prefix;
    }

    /** The stream of {@code topic}. */
    String stream(String topic) {
        return prefix + ":{" + topic + "}";
    }

    /** The id counter of {@code topic}. */
    String counter(String topic) {
        return stream(topic) + ":last-id";
    }

    /** The topic whose stream {@code streamKey} is; null for a key that is not one. */
    String topicOf(String streamKey) {
        String start = prefix + ":{";
        if (!streamKey.startsWith(start) || !streamKey.endsWith("}")) {
            return null;
        }
        return streamKey.substring(start.length(), streamKey.length() - 1);
    }

    /** The ticker's lease, one for all topics. */
    String tickerLease() {
        return prefix + ":ticker";
    }
}
