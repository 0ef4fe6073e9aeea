package com.example.threading.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The model checker's own check: a lost update on a plain {@code int} field (two threads
 * each read it and write it plus one) is found. The other checks rely on it, since several of their seeded bugs are
 * plain fields read and written without a lock. On Temurin 25 with Lincheck 3.7 this fails: there the checker switches
 * threads at the JDK's atomics and locks but not at plain field accesses, and finds nothing. So the Lincheck tests run
 * on JDK 17.
 */
class ModelCheckerLincheckTest {

    /** A counter whose increment is a read, then a write. */
    private static final class Counter {
        private int count;

        void increment() {
            count = count + 1;
        }
    }

    @Test
    void aLostUpdateOnAPlainFieldIsFound() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(500, () -> {
            Counter counter = new Counter();
            Interleavings.onThreads(List.of(() -> counter.increment(), () -> counter.increment()));
            if (counter.count != 2) {
                throw new AssertionError("a lost update: " + counter.count);
            }
        }))
                .as("the model checker switches threads between a plain field's read and its write (it does not on"
                        + " JDK 25 with Lincheck 3.7: run the Lincheck tests on JDK 17)")
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("a lost update: 1"));
    }
}
