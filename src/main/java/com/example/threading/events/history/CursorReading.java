package com.example.threading.events.history;


/**
 * What a hub read for one topic of a poll, with its lock held: the cursor the poll reads after there, and what to do
 * with it — answer with news, wait (park), read the archive first, or refuse (the history cannot be read now).
 */
public sealed interface CursorReading {

    /** The cursor the poll reads after on this topic. */
    long cursor();

    /** Answer with {@code news}. */
    record News(long cursor, EventBatch news) implements CursorReading {
    }

    /** Nothing after {@code cursor} yet: park. */
    record Wait(long cursor) implements CursorReading {
    }

    /** Read {@code asked} from the archive, then place the poll again. */
    record AskArchive(long cursor, TopicCursor asked) implements CursorReading {
    }

    /** The poll asked for history nobody can read now (a shared stream's archive failed): refuse, retry later. */
    record Unavailable(long cursor) implements CursorReading {
    }
}
