package com.example.threading.load.service;

import com.example.threading.load.report.Report;

/**
 * Deliberately breaks the layering (the target layer reaching up to the report): {@code LayeringTest} feeds it
 * to its rule to show that the rule catches an arrow back up. Test code only; nothing calls it.
 */
public final class LayeringViolationFixture {

    private LayeringViolationFixture() {
    }

    /** The upward dependency. */
    static String folderOf(Report report) {
        return report.directory().toString();
    }
}
