package com.example.threading.longpoll;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The topics the hub holds, at most {@code maxTopics}: a poll or publish creates its topic on first use
 * ({@link #getOrCreate}, refused when full), and {@link #evictIdle} drops those nobody polls, waits on or publishes
 * to any more, so the count does not only grow. The {@value TopicNames#DEFAULT} topic (the ticker's) is never evicted.
 *
 * <p>Used only with the hub's lock held ({@link #guard}); the count ({@link #size}) is published through a
 * volatile field for gauges on other threads.
 */
final class Topics {

    @GuardedBy("guard")
    private final Map<String, Topic> byName = new HashMap<>();
    private final int maxTopics;
    private final int historySize;
    private final ReentrantLock guard;
    private final String epochPrefix;
    @GuardedBy("guard")
    private long topicsCreated;
    private volatile int size;

    /**
     * At most {@code maxTopics} topics of {@code historySize} events, used under {@code guard}. {@code epochPrefix}
     * (null: no epochs, the stream keeps its histories) starts the epoch of every topic created here, which ends in
     * the number of topics created before it: a topic evicted and created again (its ids start again) gets a new one.
     */
    Topics(int maxTopics, int historySize, ReentrantLock guard, String epochPrefix) {
        this.maxTopics = maxTopics;
        this.historySize = historySize;
        this.guard = guard;
        this.epochPrefix = epochPrefix;
    }

    /** The lock every method but {@link #size} and {@link #max} must be called with (the hub's). */
    ReentrantLock guard() {
        return guard;
    }

    /** The topic, or null when the hub does not hold it. */
    Topic get(String name) {
        return byName.get(name);
    }

    /** The topic, created now if the hub does not hold it yet; null when it would be one topic too many. */
    Topic getOrCreate(String name, long nowNanos) {
        Topic topic = byName.get(name);
        if (topic == null) {
            if (byName.size() >= maxTopics) {
                return null;
            }
            String epoch = epochPrefix == null ? null : epochPrefix + "-" + Long.toString(++topicsCreated, 36);
            topic = new Topic(name, new EventHistory(historySize, guard, epoch), nowNanos);
            byName.put(name, topic);
            size = byName.size();
        }
        return topic;
    }

    /** Drops every topic idle for {@code idleNanos} but the default one; returns them. */
    List<Topic> evictIdle(long nowNanos, long idleNanos) {
        List<Topic> evicted = new ArrayList<>();
        for (Iterator<Topic> topics = byName.values().iterator(); topics.hasNext(); ) {
            Topic topic = topics.next();
            if (!topic.name().equals(TopicNames.DEFAULT) && topic.idle(nowNanos, idleNanos)) {
                topics.remove();
                evicted.add(topic);
            }
        }
        size = byName.size();
        return evicted;
    }

    /** Runs {@code action} on every topic held. */
    void forEach(java.util.function.Consumer<Topic> action) {
        byName.values().forEach(action);
    }

    /** Topics held; readable from any thread. */
    int size() {
        return size;
    }

    /** Most topics held at once. */
    int max() {
        return maxTopics;
    }
}
