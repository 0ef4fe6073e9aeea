package com.example.threading.events.stream.redis;

/** Stops what a Redis test started, in the order given, each even when an earlier one failed to stop. */
final class Stopping {

    private Stopping() {
    }

    /** Closes each non-null {@code closeable} in order, best effort: a failure does not keep the next one running. */
    static void closeAll(AutoCloseable... closeables) {
        for (AutoCloseable closeable : closeables) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception ignored) {
                // best effort: the next one must still be stopped
            }
        }
    }
}
