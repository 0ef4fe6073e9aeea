package com.example.threading.threads;

import java.util.Optional;

/**
 * This package's JDK 21 classes. The service compiles with {@code --release 17}, so what needs JDK 21 is plain Java in
 * a source set of its own ({@code src/main/java21}, compiled with {@code --release 21} into the same jar), and this
 * class loads it only on JDK 21+.
 */
final class Jdk21Classes {

    private Jdk21Classes() {
    }

    /** A new {@code simpleName} of this package from the JDK 21 source set, as a {@code type}; empty where {@link #missing} says why. */
    static <T> Optional<T> load(Class<T> type, String simpleName) {
        if (missing(simpleName, "").isPresent()) {
            return Optional.empty();
        }
        String name = Jdk21Classes.class.getPackageName() + "." + simpleName;
        try {
            return Optional.of(type.cast(Class.forName(name).getDeclaredConstructor().newInstance()));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load " + name + " on Java " + Runtime.version(), e);
        }
    }

    /** Why {@code feature} (its class {@code simpleName}) is not here: below JDK 21, or a jar built without its JDK 21 classes. */
    static Optional<String> missing(String simpleName, String feature) {
        if (Runtime.version().feature() < 21) {
            return Optional.of(feature + " needs JDK 21 or newer; this service runs on Java " + Runtime.version().feature());
        }
        if (Jdk21Classes.class.getResource(simpleName + ".class") == null) {
            return Optional.of("this jar was built without its JDK 21 classes (src/main/java21), so it has no " + feature
                    + ": build it on JDK 25, or on JDK 17 with Temurin 25 installed beside it");
        }
        return Optional.empty();
    }
}
