package com.example.threading.events.hub;

import com.example.threading.events.history.TopicCursor;
import java.util.List;

/** What the hub decided about a poll with its lock held; acted on once the lock is released. */
sealed interface Placement {

    /** Parked on each of its topics (or claimed meanwhile by its deadline or a failure). */
    record Parked() implements Placement {
    }

    /** Answer at once with {@code answer} (an {@link com.example.threading.events.history.EventBatch} or {@link com.example.threading.events.history.TopicsBatch}). */
    record News(Object answer) implements Placement {
    }

    /** Read these cursors from the archive, then place the poll again. */
    record AskArchive(List<TopicCursor> cursors) implements Placement {
    }

    /** Refused: full, too many topics, history unreadable, or the server stopping. */
    record Refused(Answer answer) implements Placement {
    }
}
