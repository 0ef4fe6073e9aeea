package com.example.threading.events.access.jwt;

import com.example.threading.events.stream.TopicNames;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The topics one claim lists for one action: exact names ({@code room-1}) and prefixes ({@code room-*}: every topic
 * whose name starts with {@code room-}; {@code *} alone: every topic). An exact name matches only itself, so
 * {@code room-1} never matches {@code room-10}; only a trailing {@code *} makes a prefix. Entries use the alphabet of
 * topic names ({@code A-Z a-z 0-9 . _ -}, at most 64); anything else makes the claim, and so the token, invalid.
 */
final class TopicPatterns {

    /** No topic at all (an action the claim does not mention). */
    static final TopicPatterns NONE = new TopicPatterns(List.of(), List.of());

    /** A topic name, or a prefix of one followed by {@code *}. */
    private static final Pattern ENTRY = Pattern.compile(TopicNames.CHARACTER + "{1," + TopicNames.MAX_LENGTH + "}|"
            + TopicNames.CHARACTER + "{0," + (TopicNames.MAX_LENGTH - 1) + "}\\*");

    private final List<String> names;
    private final List<String> prefixes;

    private TopicPatterns(List<String> names, List<String> prefixes) {
        this.names = List.copyOf(names);
        this.prefixes = List.copyOf(prefixes);
    }

    /** The patterns {@code entries} list; an {@link IllegalArgumentException} for an entry that is not one. */
    static TopicPatterns of(List<String> entries) {
        List<String> names = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        for (String entry : entries) {
            if (entry == null || !ENTRY.matcher(entry).matches()) {
                throw new IllegalArgumentException("not a topic name or prefix*: " + entry);
            }
            if (entry.endsWith("*")) {
                prefixes.add(entry.substring(0, entry.length() - 1));
            } else {
                names.add(entry);
            }
        }
        return new TopicPatterns(names, prefixes);
    }

    /** Whether {@code topic} is one of the names, or starts with one of the prefixes. */
    boolean matches(String topic) {
        if (names.contains(topic)) {
            return true;
        }
        for (String prefix : prefixes) {
            if (topic.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        List<String> all = new ArrayList<>(names);
        prefixes.forEach(prefix -> all.add(prefix + "*"));
        return all.toString();
    }
}
