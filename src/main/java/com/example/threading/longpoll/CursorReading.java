package com.example.threading.longpoll;

/**
 * What a hub read for one topic of a poll, with its lock held: the cursor the poll waits after there, and either the
 * news to answer with, or a cursor the archive must answer first, or neither (the poll parks on the topic).
 * {@code unavailable}: the poll asked for history nobody can read now (a shared stream's archive failed).
 */
record CursorReading(long cursor, EventBatch news, TopicCursor askArchive, boolean unavailable) {

    static final CursorReading UNAVAILABLE = new CursorReading(0, null, null, true);

    /** Nothing after {@code cursor} yet: park. */
    static CursorReading waitAfter(long cursor) {
        return new CursorReading(cursor, null, null, false);
    }

    /** Answer with {@code news}. */
    static CursorReading news(long cursor, EventBatch news) {
        return new CursorReading(cursor, news, null, false);
    }

    /** Read {@code asked} from the archive, then place the poll again. */
    static CursorReading askArchive(long cursor, TopicCursor asked) {
        return new CursorReading(cursor, null, asked, false);
    }
}
