package com.example.threading.events.hub;

import com.codahale.metrics.Meter;
import com.example.threading.events.history.EventHistory;
import com.example.threading.events.stream.TopicNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The topics the hub holds, at most {@code maxTopics}: a poll or publish creates its topic on first use
 * ({@link #getOrCreate}, refused when full), and {@link #evictIdle} drops those nobody polls, waits on or publishes
 * to any more, so the count does not only grow. The {@value TopicNames#DEFAULT} topic (the ticker's) is never evicted.
 *
 * <p>Not thread-safe: its owner, {@link EventHub}, uses it only with its lock held (the checker sees that:
 * {@code @GuardedBy} on the hub's field). The count ({@link #size}) is published through a volatile field for gauges
 * on other threads.
 */
final class Topics {

    private final Map<String, Topic> byName = new HashMap<>();
    private final int maxTopics;
    private final int historySize;
    private final ReentrantLock historyGuard;
    private final String epochPrefix;
    private final Consumer<String> created;
    private final Meter refused;
    private long topicsCreated;
    private volatile int size;

    /**
     * At most {@code maxTopics} topics of {@code historySize} events, whose histories check that {@code historyGuard}
     * (the hub's lock) is held. {@code epochPrefix}
     * (null: no epochs, the stream keeps its histories) starts the epoch of every topic created here, which ends in
     * the number of topics created before it: a topic evicted and created again (its ids start again) gets a new one.
     * {@code created} is told the name of each topic {@link #use} creates, the lock held (it must not block);
     * {@code refused} counts the topics it refuses. Holds the {@value TopicNames#DEFAULT} topic from the start.
     */
    Topics(int maxTopics, int historySize, ReentrantLock historyGuard, String epochPrefix, Consumer<String> created,
           Meter refused) {
        this.maxTopics = maxTopics;
        this.historySize = historySize;
        this.historyGuard = historyGuard;
        this.epochPrefix = epochPrefix;
        this.created = created;
        this.refused = refused;
        getOrCreate(TopicNames.DEFAULT, 0); // the ticker's, never evicted; the owner tells its source itself
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
            topic = new Topic(name, new EventHistory(historySize, historyGuard, epoch), nowNanos);
            byName.put(name, topic);
            size = byName.size();
        }
        return topic;
    }

    /** The topic, marked used at {@code nowNanos}; created if needed (and announced); null, and counted, if one too many. */
    Topic use(String name, long nowNanos) {
        Topic topic = byName.get(name);
        if (topic == null) {
            topic = getOrCreate(name, nowNanos);
            if (topic == null) {
                refused.mark();
                return null;
            }
            created.accept(name);
        }
        topic.used(nowNanos);
        return topic;
    }

    /**
     * Every one of {@code names} (distinct), marked used at {@code nowNanos}, those not held created (and announced);
     * false, creating none, and counted once, when they would be more than {@code maxTopics}.
     */
    boolean useAll(List<String> names, long nowNanos) {
        int missing = 0;
        for (String name : names) {
            if (!byName.containsKey(name)) {
                missing++;
            }
        }
        if (byName.size() + missing > maxTopics) {
            refused.mark();
            return false;
        }
        for (String name : names) {
            use(name, nowNanos);
        }
        return true;
    }

    /** Takes out the polls on {@code topic} that event {@code eventId} answers; those of several topics leave the others. */
    Collection<ParkedPoll> takeAnswered(Topic topic, long eventId) {
        Collection<ParkedPoll> batch = topic.parked().takeBefore(eventId);
        for (ParkedPoll poll : batch) {
            for (String other : poll.severalTopics() ? poll.cursors().keySet() : Set.<String>of()) {
                Topic parkedOn = byName.get(other);
                if (parkedOn != topic && parkedOn != null) {
                    parkedOn.parked().remove(poll);
                }
            }
        }
        return batch;
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
    void forEach(Consumer<Topic> action) {
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
