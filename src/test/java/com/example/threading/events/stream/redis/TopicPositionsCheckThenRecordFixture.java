package com.example.threading.events.stream.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link TopicPositions}' watching, placing, newest ids and lag as they were before the newest id was recorded under
 * the topic's entry, for {@link TopicPositionsLincheckTest}: {@link #sawNewest} looks whether the topic is watched,
 * then records, so a {@link #forget} between the two leaves the newest id of a topic no longer watched.
 */
final class TopicPositionsCheckThenRecordFixture implements TopicPositionsLincheckTest.Positions {

    private final Map<String, Long> positions = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> newestSeen = new ConcurrentHashMap<>();

    @Override
    public boolean watch(String topic) {
        return positions.putIfAbsent(topic, TopicPositions.UNKNOWN) == null;
    }

    @Override
    public void forget(String topic) {
        positions.remove(topic);
        newestSeen.remove(topic);
    }

    @Override
    public boolean watches(String topic) {
        return positions.containsKey(topic);
    }

    @Override
    public Long place(String topic, long numbered, String newestEntry) {
        long position = newestEntry.isEmpty() ? numbered : StreamEntries.idOf(newestEntry) - 1;
        if (!positions.replace(topic, TopicPositions.UNKNOWN, position)) {
            return null;
        }
        sawNewest(topic, numbered);
        return position;
    }

    @Override
    public void sawNewest(String topic, long id) {
        if (positions.containsKey(topic)) { // the seeded bug: a look, then the record
            newestSeen.computeIfAbsent(topic, t -> new AtomicLong()).accumulateAndGet(id, Math::max);
        }
    }

    @Override
    public long lag() {
        long lag = 0;
        for (Map.Entry<String, Long> position : positions.entrySet()) {
            AtomicLong newest = newestSeen.get(position.getKey());
            if (newest != null && position.getValue() >= 0) {
                lag += Math.max(0, newest.get() - position.getValue());
            }
        }
        return lag;
    }
}
