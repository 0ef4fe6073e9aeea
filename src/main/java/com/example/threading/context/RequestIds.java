package com.example.threading.context;

import java.util.HexFormat;
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

    private static final HexFormat HEX = HexFormat.of();
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
        return HEX.toHexDigits(random.nextLong()) + HEX.toHexDigits(random.nextLong());
    }
}
