package com.example.threading.events.stream.redis;

/**
 * The Redis keys of each topic, under the configured prefix ({@code events.stream.redis.key}): the stream
 * {@code <prefix>:{<topic>}}, its id counter {@code <prefix>:{<topic>}:last-id} and its epoch
 * {@code <prefix>:{<topic>}:epoch}. The braces are a Redis Cluster hash tag: a topic's keys always share a hash slot (so
 * one script may touch them all), and different topics spread over the slots.
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

    /** The epoch of {@code topic}'s stream: which history its ids count in. */
    String epoch(String topic) {
        return stream(topic) + ":epoch";
    }

    /** The keys a topic's publish and history scripts use: its stream, counter and epoch. */
    String[] scriptKeys(String topic) {
        return new String[] {stream(topic), counter(topic), epoch(topic)};
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
