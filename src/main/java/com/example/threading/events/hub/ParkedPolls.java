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
 * The polls parked on one topic. A one-shot poll waits by the cursor it reads after: an event with id {@code n} takes
 * every one whose cursor is below {@code n} ({@link #takeBefore}); one whose cursor is at or above it (a shared
 * stream's reader has not yet delivered what was published elsewhere) stays until an event beyond its cursor arrives.
 * In-process, every parked poll's cursor is the newest id, so each event takes them all. A standing poll waits by its
 * cursor the same way until the first event beyond it reaches it ({@link #reachBefore}); from then on it follows the
 * topic ({@link #followers}): every later event is its news, with no cursor to compare, until it is claimed.
 *
 * <p>Used only with the hub's lock held.
 */
final class ParkedPolls {

    private final String topic;
    private final TreeMap<Long, Set<ParkedPoll>> byCursor = new TreeMap<>();
    private final TreeMap<Long, Set<ParkedPoll>> standingByCursor = new TreeMap<>();
    private final Set<ParkedPoll> following = new HashSet<>();

    ParkedPolls(String topic) {
        this.topic = topic;
    }

    /** Parks {@code poll}, whose cursors are set ({@link ParkedPoll#markParked}). */
    void add(ParkedPoll poll) {
        (poll.standing() ? standingByCursor : byCursor).computeIfAbsent(poll.cursor(topic), cursor -> new HashSet<>()).add(poll);
    }

    /** Takes out a poll that leaves without an event of this topic; harmless if it was already taken. */
    void remove(ParkedPoll poll) {
        if (poll.standing() && following.remove(poll)) {
            return;
        }
        TreeMap<Long, Set<ParkedPoll>> waiting = poll.standing() ? standingByCursor : byCursor;
        long cursor = poll.cursor(topic);
        Set<ParkedPoll> atCursor = waiting.get(cursor);
        if (atCursor != null && atCursor.remove(poll) && atCursor.isEmpty()) {
            waiting.remove(cursor);
        }
    }

    /** No poll is parked here. */
    boolean isEmpty() {
        return byCursor.isEmpty() && standingByCursor.isEmpty() && following.isEmpty();
    }

    /**
     * Takes out every one-shot poll whose cursor is below {@code id}: those event {@code id} answers. The caller owns
     * what it gets (usually the one set of the newest cursor, handed over without a copy).
     */
    Collection<ParkedPoll> takeBefore(long id) {
        SortedMap<Long, Set<ParkedPoll>> due = byCursor.headMap(id);
        Collection<ParkedPoll> taken = collect(due);
        due.clear();
        return taken;
    }

    /**
     * Moves every standing poll whose cursor is below {@code id} to the followers: event {@code id} is the first they
     * are handed. Returns them; the caller owns what it gets.
     */
    Collection<ParkedPoll> reachBefore(long id) {
        if (standingByCursor.isEmpty()) {
            return List.of();
        }
        SortedMap<Long, Set<ParkedPoll>> due = standingByCursor.headMap(id);
        Collection<ParkedPoll> reached = collect(due);
        due.clear();
        following.addAll(reached);
        return reached;
    }

    /** The standing polls that follow this topic now: a copy, which the caller owns. */
    List<ParkedPoll> followers() {
        return following.isEmpty() ? List.of() : new ArrayList<>(following);
    }

    /** Takes out every poll, standing ones included (shutdown); the caller owns what it gets. */
    Collection<ParkedPoll> takeAll() {
        List<ParkedPoll> all = new ArrayList<>(collect(byCursor));
        all.addAll(collect(standingByCursor));
        all.addAll(following);
        byCursor.clear();
        standingByCursor.clear();
        following.clear();
        return all;
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
