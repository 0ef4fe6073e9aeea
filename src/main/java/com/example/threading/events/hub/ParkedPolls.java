package com.example.threading.events.hub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The polls parked on one topic, by the cursor each reads after on that topic. An event with id {@code n} takes every poll whose
 * cursor is below {@code n} ({@link #takeBefore}); a poll whose cursor is at or above it (a shared stream's reader has
 * not yet delivered what was published elsewhere) stays until an event beyond its cursor arrives. In-process, every
 * parked poll's cursor is the newest id, so each event takes them all.
 *
 * <p>Used only with the hub's lock held.
 */
final class ParkedPolls {

    private final String topic;
    private final TreeMap<Long, Set<ParkedPoll>> byCursor = new TreeMap<>();

    ParkedPolls(String topic) {
        this.topic = topic;
    }

    /** Parks {@code poll}, whose cursors are set ({@link ParkedPoll#markParked}). */
    void add(ParkedPoll poll) {
        byCursor.computeIfAbsent(poll.cursor(topic), cursor -> new HashSet<>()).add(poll);
    }

    /** Takes out a poll that leaves without an event of this topic; harmless if it was already taken. */
    void remove(ParkedPoll poll) {
        long cursor = poll.cursor(topic);
        Set<ParkedPoll> atCursor = byCursor.get(cursor);
        if (atCursor != null && atCursor.remove(poll) && atCursor.isEmpty()) {
            byCursor.remove(cursor);
        }
    }

    /** No poll is parked here. */
    boolean isEmpty() {
        return byCursor.isEmpty();
    }

    /**
     * Takes out every poll whose cursor is below {@code id}: those event {@code id} answers. The caller owns what it
     * gets (usually the one set of the newest cursor, handed over without a copy).
     */
    Collection<ParkedPoll> takeBefore(long id) {
        SortedMap<Long, Set<ParkedPoll>> due = byCursor.headMap(id);
        Collection<ParkedPoll> taken = collect(due);
        due.clear();
        return taken;
    }

    /** Takes out every poll (shutdown); the caller owns what it gets. */
    Collection<ParkedPoll> takeAll() {
        Collection<ParkedPoll> taken = collect(byCursor);
        byCursor.clear();
        return taken;
    }

    private static Collection<ParkedPoll> collect(Map<Long, Set<ParkedPoll>> sets) {
        if (sets.size() <= 1) {
            return sets.isEmpty() ? List.of() : sets.values().iterator().next();
        }
        List<ParkedPoll> polls = new ArrayList<>();
        sets.values().forEach(polls::addAll);
        return polls;
    }
}
