package com.example.threading.minimal;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import org.junit.jupiter.api.Assumptions;

/**
 * The applications of the minimal versions that use JDK 25's preview APIs: compiled apart
 * ({@code src/test/java25-preview}), loaded by name and started only on JDK 25, whose suite JVM enables them.
 */
final class PreviewApps {

    private PreviewApps() {
    }

    /** Skips the calling test class below JDK 25, naming {@code listing} and what it needs. */
    static void assumeJdk25(String listing) {
        Assumptions.assumeTrue(Runtime.version().feature() == 25,
                listing + " needs JDK 25 with --enable-preview; CI's Temurin 25 pass runs it");
    }

    /** Starts {@code className} on an ephemeral loopback port with the test configuration and {@code overrides}. */
    @SuppressWarnings("unchecked") // loaded by name: the class needs JDK 25 with preview features
    static DropwizardTestSupport<Configuration> start(String className, String prefix, ConfigOverride... overrides)
            throws Exception {
        Class<? extends Application<Configuration>> appClass = (Class<? extends Application<Configuration>>) Class.forName(className);
        DropwizardTestSupport<Configuration> app = new DropwizardTestSupport<>(appClass,
                ResourceHelpers.resourceFilePath(LiftOut.CONFIG), prefix, overrides);
        app.before();
        return app;
    }

    /** Closes {@code http} and stops {@code apps} in the order given; null for what was not started. */
    static void stop(LoopbackHttp http, DropwizardTestSupport<?>... apps) {
        if (http != null) {
            http.close();
        }
        for (DropwizardTestSupport<?> app : apps) {
            if (app != null) {
                app.after();
            }
        }
    }
}
