package com.example.threading.events.hub;

import com.example.threading.events.history.TopicNews;
import com.example.threading.events.stream.Event;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one delivery of events hands the standing polls ({@link Follower}s): per topic, its events in the order
 * appended, the polls that followed the topic before the first of them, and the polls each event reached first
 * (their cursor was below it), which get the events from that one on. A ring that starts over hands every poll on it
 * the whole new history, missed. Collected under the hub's lock as the events are appended, offered after it, on the
 * dispatcher, each topic's news built once and shared by its polls. Confined: filled on the delivering thread, then
 * handed whole to the dispatcher ({@code Executor.execute} orders the one before the other).
 */
final class FollowedEvents {

    /** Standing polls an event reached first: they are handed the run's events from index {@code from} on. */
    private record Reached(int from, Collection<ParkedPoll> polls) {
    }

    /** One topic's events of this delivery and who is handed them. */
    private static final class Run {
        final String topic;
        final List<Event> events = new ArrayList<>();
        final List<ParkedPoll> followers;
        final List<Reached> reached = new ArrayList<>();
        /** Standing polls handed this run's news: the followers and every reached group. */
        int recipients;
        boolean missed;
        String epoch;

        Run(String topic, List<ParkedPoll> followers) {
            this.topic = topic;
            this.followers = followers;
            this.recipients = followers.size();
        }

        TopicNews news(int from) {
            return new TopicNews(topic, events.subList(from, events.size()), missed, epoch);
        }
    }

    private final Map<String, Run> runs = new LinkedHashMap<>();

    /**
     * With the hub's lock held: {@code event} was appended to {@code topic} ({@code restarted}: it started the topic's
     * ring over). Returns how many standing polls it is handed to.
     */
    int appended(Topic topic, Event event, boolean restarted) {
        Run run = runs.get(topic.name());
        if (restarted) {
            topic.parked().reachBefore(Long.MAX_VALUE); // every standing poll on the topic counted in the old history
            run = new Run(topic.name(), topic.parked().followers());
            run.events.addAll(topic.history().startedOver().events());
            run.missed = true;
            runs.put(topic.name(), run); // replaces this delivery's earlier run: its events were of the old history
        } else {
            if (run == null) {
                run = new Run(topic.name(), topic.parked().followers());
                runs.put(topic.name(), run);
            }
            run.events.add(event);
            Collection<ParkedPoll> reached = topic.parked().reachBefore(event.id());
            if (!reached.isEmpty()) {
                run.reached.add(new Reached(run.events.size() - 1, reached));
                run.recipients += reached.size();
            }
        }
        run.epoch = topic.history().epoch();
        return run.recipients;
    }

    /** How many times {@link #offer} hands news to a poll (each poll once per topic with events). */
    int offers() {
        int offers = 0;
        for (Run run : runs.values()) {
            offers += run.recipients;
        }
        return offers;
    }

    /**
     * On the dispatcher: hands each standing poll that still stands its news, {@code handed} to be run by its transport;
     * tells {@code timing} of each that no longer does.
     */
    void offer(BatchTiming timing, Runnable handed) {
        for (Run run : runs.values()) {
            if (!run.followers.isEmpty()) {
                offer(run.news(0), run.followers, timing, handed);
            }
            for (Reached reached : run.reached) {
                offer(run.news(reached.from()), reached.polls(), timing, handed);
            }
        }
    }

    private static void offer(TopicNews news, Collection<ParkedPoll> polls, BatchTiming timing, Runnable handed) {
        for (ParkedPoll poll : polls) {
            if (poll.stands()) {
                poll.follower().follow(news, handed);
            } else {
                timing.completed(false); // withdrawn, failed or stopped since it was taken
            }
        }
    }
}
