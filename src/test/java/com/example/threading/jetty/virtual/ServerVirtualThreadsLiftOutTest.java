package com.example.threading.jetty.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Requests on virtual threads copied alone: a bare Dropwizard application with {@link ServerVirtualThreadsBundle} and
 * an endpoint of its own, which runs on a virtual thread on JDK 21+; below that the switch refuses to start, saying why.
 */
class ServerVirtualThreadsLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the one section. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private ServerVirtualThreadsConfiguration serverVirtualThreads = new ServerVirtualThreadsConfiguration();

        ServerVirtualThreadsConfiguration getServerVirtualThreads() {
            return serverVirtualThreads;
        }
    }

    /** A copier's application: one addBundle line, and an endpoint of its own. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new ServerVirtualThreadsBundle<>(LiftedConfiguration::getServerVirtualThreads));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
            environment.jersey().register(new WhichThread());
        }
    }

    /** Answers the name of the thread that runs it. */
    @Path("/which-thread")
    public static final class WhichThread {
        @GET
        public String name() {
            return Thread.currentThread().getName();
        }
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void theCopiersOwnEndpointRunsOnAVirtualThread() throws Exception {
        DropwizardTestSupport<LiftedConfiguration> app = app();
        app.before();
        try (LoopbackHttp http = new LoopbackHttp()) {
            String thread = http.get(LoopbackHttp.url(app.getLocalPort(), "/which-thread")).body();

            assertThat(thread).startsWith(ServerVirtualThreads.THREAD_NAME_PREFIX);
            assertThat(((Number) app.getEnvironment().metrics().getGauges().get("server.virtual-threads.started").getValue())
                    .longValue()).isPositive();
        } finally {
            app.after();
        }
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void belowJdk21TheSwitchRefusesToStartSayingWhy() {
        assertThatThrownBy(app()::before).hasMessageContaining("needs JDK 21+");
    }

    private static DropwizardTestSupport<LiftedConfiguration> app() {
        return new DropwizardTestSupport<>(LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
                ConfigOverride.config("serverVirtualThreads.enabled", "true"));
    }
}
