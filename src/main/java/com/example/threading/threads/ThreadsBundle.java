package com.example.threading.threads;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.support.AdminMenuLink;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's threads as JDK 21+ shows them: {@code GET /threads.json} on the admin port (every thread as JSON,
 * virtual ones included, each under the executor or scope that owns it), linked from Dropwizard's admin menu beside
 * its classic {@code /threads}; and virtual threads' JFR events as metrics ({@code threads.virtual.pinned},
 * {@code threads.virtual.submit-failed}) while the service runs. Below JDK 21 the path answers 501 saying so, and
 * no metric is registered.
 * <pre>{@code
 * bootstrap.addBundle(new ThreadsBundle<>(MyConfiguration::getThreads));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class ThreadsBundle<C extends Configuration> implements ConfiguredBundle<C> {

    /** The dump's path on the admin port. */
    public static final String PATH = "/threads.json";

    private static final Logger LOG = LoggerFactory.getLogger(ThreadsBundle.class);

    private final Function<C, ThreadsConfiguration> section;

    /** The bundle, configured from the section {@code section} picks out of the application's configuration. */
    public ThreadsBundle(Function<C, ThreadsConfiguration> section) {
        this.section = section;
    }

    /** Mounts the dump and its menu link on the admin servlet context, and starts the JFR stream with the service. */
    @Override
    public void run(C configuration, Environment environment) {
        ThreadsConfiguration threads = section.apply(configuration);
        MetricRegistry metrics = environment.metrics();
        String missing = Jdk21Classes.missing("HotSpotJsonThreadDump", "a JSON thread dump with virtual threads")
                .map(why -> why + " (the classic dump is /threads)").orElse("");
        Optional<JsonThreadDump> dump = Jdk21Classes.load(JsonThreadDump.class, "HotSpotJsonThreadDump");
        if (dump.isEmpty()) {
            LOG.info("{} will answer 501: {}", PATH, missing);
        }
        environment.admin().addServlet("threads-json", new JsonThreadDumpServlet(dump, missing, environment.getObjectMapper(),
                metrics.timer("threads.json-dump"), metrics.meter("threads.json-dump.refused"))).addMapping(PATH);
        environment.admin().addFilter("threads-json-menu-link",
                        new AdminMenuLink(PATH, "Threads as JSON, virtual threads and their owners included (JDK 21+)"))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");

        if (threads.isVirtualThreadEvents()) {
            Jdk21Classes.missing("JfrVirtualThreadEvents", "count of virtual threads' JFR events")
                    .ifPresent(why -> LOG.info("threads.virtualThreadEvents is on, but {}", why));
            Jdk21Classes.load(VirtualThreadEvents.class, "JfrVirtualThreadEvents").ifPresent(events ->
                    environment.lifecycle().manage(new Managed() {
                        private AutoCloseable stream;

                        @Override
                        public void start() {
                            stream = events.start(threads.getPinnedThreshold().toJavaDuration(),
                                    metrics.timer("threads.virtual.pinned"), metrics.meter("threads.virtual.submit-failed"));
                        }

                        @Override
                        public void stop() throws Exception {
                            if (stream != null) { // null when start() failed
                                stream.close();
                            }
                        }
                    }));
        }
    }
}
