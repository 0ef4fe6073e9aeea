package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code jetty.headerFieldCache: true}: the same kept-alive connection as in {@link HeaderFieldCacheTest} holds Jetty's field cache. */
@ExtendWith(DropwizardExtensionsSupport.class)
class HeaderFieldCacheOnTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("jetty.headerFieldCache", "true"));

    @Test
    void withTheSwitchOnTheConnectionBuildsItsCache() throws Exception {
        assertThat(HeaderFieldCacheTest.fieldCachesAfterTwoRequests(APP)).containsExactly(true);
    }
}
