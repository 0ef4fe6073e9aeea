package com.example.threading.live;

import com.example.threading.support.AdminMenuLink;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.AdminEnvironment;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET /live} on the admin port: one page that charts, once a second, the last five minutes of the threads,
 * requests in flight, queues, refusals, long-polls, execution-strategy modes, admission and GC of this service, read
 * from the metric registry by the names each pattern's page documents ({@link LiveCharts}). The page, its script, the
 * chart library and the docs pages it links come from the jar; it fetches nothing from anywhere else. Its numbers
 * come from {@code GET /live/data}, its layout from {@code GET /live/layout}; Dropwizard's admin menu links it.
 */
public final class LiveBundle implements ConfiguredBundle<Configuration> {

    /** The page's path on the admin port. */
    public static final String PATH = "/live";

    /** Mounts the page, its data and the menu link on the admin servlet context. */
    @Override
    public void run(Configuration configuration, Environment environment) {
        List<LiveChart> charts = LiveCharts.standard();
        Set<String> docs = new TreeSet<>(Set.of("live.md"));
        charts.forEach(chart -> chart.series().forEach(line -> docs.add(line.page())));
        AdminEnvironment admin = environment.admin();
        admin.addServlet("live-page", new LivePageServlet(docs)).addMapping(PATH, PATH + "/*");
        admin.addServlet("live-layout", new LiveLayoutServlet(charts, environment.getObjectMapper())).addMapping(PATH + "/layout");
        admin.addServlet("live-data", new LiveDataServlet(environment.metrics(), charts, environment.getObjectMapper().getFactory()))
                .addMapping(PATH + "/data");
        admin.addFilter("live-menu-link", new AdminMenuLink(PATH, "Live: threads, queues and refusals, charted"))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
    }
}
