package com.example.threading.context;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Request ids: a client's {@code X-Request-Id} is kept when it is 1 to {@value #MAX_LENGTH} characters of
 * {@code A-Z a-z 0-9 . _ : -} (safe in a header, a log line and a URL as it is); anything else (absent, empty, too
 * long, other characters) is replaced by a new one, 32 hex digits. New ids come from {@link ThreadLocalRandom}: unique
 * enough to tell requests apart, and nothing waits for entropy.
 */
public final class RequestIds {

    /** Longest id kept. */
    public static final int MAX_LENGTH = 64;

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_LENGTH + "}");

    private RequestIds() {
    }

    /** {@code offered} when it is a valid id, else a new one. */
    public static String accept(String offered) {
        return offered != null && VALID.matcher(offered).matches() ? offered : newId();
    }

    /** A new id: 128 random bits as 32 hex digits. */
    public static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] hex = new char[32];
        write(random.nextLong(), hex, 0);
        write(random.nextLong(), hex, 16);
        return new String(hex);
    }

    private static void write(long bits, char[] hex, int at) {
        for (int i = 15; i >= 0; i--) {
            hex[at + i] = Character.forDigit((int) (bits & 0xF), 16);
            bits >>>= 4;
        }
    }
}
