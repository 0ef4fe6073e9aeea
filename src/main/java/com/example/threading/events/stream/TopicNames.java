package com.example.threading.events.stream;

import java.util.regex.Pattern;

/**
 * What a topic may be called: {@code [A-Za-z0-9._-]{1,64}}, so that a name is safe in a URL, a Redis key and a log
 * line as it is. {@code /events} without a topic is the {@value #DEFAULT} topic, where the ticker publishes.
 */
public final class TopicNames {

    /** The topic of a poll or publish that names none. */
    public static final String DEFAULT = "default";

    /** Longest name. */
    public static final int MAX_LENGTH = 64;

    /** The characters of a name, as a regular-expression character class. */
    public static final String CHARACTER = "[A-Za-z0-9._-]";

    private static final Pattern NAME = Pattern.compile(CHARACTER + "{1," + MAX_LENGTH + "}");

    private TopicNames() {
    }

    /** {@code name} itself; an {@link IllegalArgumentException} with a message fit for a 400 when it is not a topic name. */
    public static String check(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a topic name is 1 to " + MAX_LENGTH
                    + " of A-Z a-z 0-9 . _ -, was '" + abbreviate(name) + "'");
        }
        return name;
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }
}
