package com.example.threading.client;

import java.util.Optional;

/**
 * {@code via=structured}'s code, where it can run. {@code StructuredTaskScope} is a preview API (JEP 505 in JDK 25),
 * so its user, {@code ScopedFanout}, is compiled with {@code --release 25 --enable-preview} in a source set of its own
 * ({@code src/main/java25-preview}) into the same jar, and such a class loads only on JDK 25 started with
 * {@code --enable-preview}: this class tries, and says why not.
 */
final class StructuredFanouts {

    private static final String CLASS = "com.example.threading.client.ScopedFanout";

    private final Optional<StructuredFanout> fanout;
    private final Optional<String> missing;

    private StructuredFanouts(Optional<StructuredFanout> fanout, Optional<String> missing) {
        this.fanout = fanout;
        this.missing = missing;
    }

    /** Loads it once, at start-up. */
    static StructuredFanouts load() {
        int feature = Runtime.version().feature();
        String needs = "via=structured needs JDK 25 started with --enable-preview (StructuredTaskScope, JEP 505)";
        if (feature < 25) {
            return without(needs + "; this service runs on Java " + feature);
        }
        if (feature > 25) {
            return without(needs + ": it is compiled against JDK 25's preview API, which JDK 26 changed (JEP 525); "
                    + "this service runs on Java " + feature);
        }
        if (StructuredFanouts.class.getResource("ScopedFanout.class") == null) {
            return without("this jar was built without its JDK 25 classes (src/main/java25-preview), so it has no "
                    + "via=structured: build it on JDK 25, or on JDK 17 with Temurin 25 installed beside it");
        }
        try {
            return new StructuredFanouts(
                    Optional.of((StructuredFanout) Class.forName(CLASS).getDeclaredConstructor().newInstance()), Optional.empty());
        } catch (UnsupportedClassVersionError previewOff) {
            return without(needs + ": start it with java --enable-preview -jar ...");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load " + CLASS + " on Java " + Runtime.version(), e);
        }
    }

    private static StructuredFanouts without(String why) {
        return new StructuredFanouts(Optional.empty(), Optional.of(why));
    }

    /** The structured fan-out; empty where {@link #missing()} says why. */
    Optional<StructuredFanout> fanout() {
        return fanout;
    }

    /** Why this JVM has no structured fan-out. */
    Optional<String> missing() {
        return missing;
    }
}
