package com.example.threading.events.history;


/** What a shared stream's archive says about one cursor ({@link ArchivedCursors#resolve}). */
public sealed interface ArchiveAnswer {

    /** Answer with these events. */
    record News(EventBatch news) implements ArchiveAnswer {
    }

    /** Nothing after the cursor yet, and this instance has not read past it: wait after {@code cursor}. */
    record WaitAfter(long cursor) implements ArchiveAnswer {
    }

    /**
     * The cursor lies beyond the stream's newest id (e.g. from before the store lost its data): answer with the ring,
     * missed, and at least up to {@code newestId} of history {@code epoch} (null: none), for a ring that has not read
     * that far.
     */
    record BeyondNewest(long newestId, String epoch) implements ArchiveAnswer {
    }

    /** The archive could not be read. */
    record Unreadable() implements ArchiveAnswer {
    }
}
