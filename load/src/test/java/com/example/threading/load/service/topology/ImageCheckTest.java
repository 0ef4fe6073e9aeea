package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image the README documents, built from the Dockerfile as written (only its two base images replaced by stand-ins:
 * {@code deploy/image/build}) and run by runc in a network namespace of its own, checked the way the README uses it:
 * the HEALTHCHECK's command passes inside the container; {@code /work/cached} answers on the application port from
 * outside, {@code /work/virtual} on a virtual thread (the runtime is JDK 25), and {@code /live} on the admin port
 * inside; the service runs as uid 10001; the admin port cannot be reached from outside unless {@code ADMIN_BIND_HOST}
 * opens it; an environment override ({@code WORK_BOUNDED_THREADS}) takes effect; {@code SIGTERM} stops it within the
 * grace period. Needs root and buildah, runc, umoci, debootstrap: under
 * {@code CI=true} it fails without them, elsewhere it is skipped with the install command.
 */
class ImageCheckTest {

    private static final Path WORK = Path.of("target", "image-check").toAbsolutePath();
    private static final Duration START = Duration.ofSeconds(90);
    /** config.yml's server.shutdownGracePeriod default. */
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static ContainerImage image;
    private static Network network;

    @BeforeAll
    static void buildTheImage() throws Exception {
        image = BuiltImage.get();
        Files.createDirectories(WORK);
        network = Network.create(List.of("app1", "app2"));
    }

    @AfterAll
    static void removeTheNetwork() {
        if (network != null) {
            network.close();
        }
    }

    @Test
    void theImageServesAsItsUserWithItsHealthCheckTakesAnOverrideKeepsTheAdminPortInsideAndStopsOnSigterm() throws Exception {
        Network.Host host = network.host("app1");
        try (Container container = Container.run(image, network.prefix() + "-app1", host, Map.of("WORK_BOUNDED_THREADS", "3"),
                WORK.resolve("app1"), WORK.resolve("app1.log"))) {
            URI app = URI.create("http://" + host.address() + ":8080");
            awaitAnswer(container, app.resolve("/work/cached?ms=1"));

            HttpResponse<String> cached = get(app.resolve("/work/cached?ms=1"));
            assertThat(cached.statusCode()).isEqualTo(200);
            assertThat(cached.body()).contains("\"pattern\":\"cached\"", "\"thread\":\"work-cached-");
            HttpResponse<String> virtual = get(app.resolve("/work/virtual?ms=1"));
            assertThat(virtual.statusCode()).as("the runtime is JDK 25: %s", virtual.body()).isEqualTo(200);
            assertThat(virtual.body()).contains("\"virtualThread\":true");

            Commands.Result health = container.exec("sh", "-c", image.healthcheck());
            assertThat(health.exitCode()).as("the HEALTHCHECK (%s): %s", image.healthcheck(), health.output()).isZero();
            Commands.Result live = container.exec("curl", "-fsS", "http://127.0.0.1:8081/live");
            assertThat(live.exitCode()).as("/live inside: %s", live.output()).isZero();
            assertThat(live.output()).contains("<html");
            Commands.Result bounded = container.exec("curl", "-fsS", "http://127.0.0.1:8081/healthcheck");
            assertThat(bounded.output()).as("WORK_BOUNDED_THREADS=3 took effect").contains("of 3 threads busy");

            long pid = container.pid().orElseThrow();
            assertThat(uid(pid)).as("the service's user").isEqualTo("10001");
            assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' '))
                    .contains("-jar /app/threading-reference.jar server /app/config.yml");

            assertThat(refused(host.address(), 8081)).as("the admin port from outside the container").isTrue();

            Optional<Duration> stopped = container.stop(GRACE.plusSeconds(5));
            assertThat(stopped).as("ended within the grace period after SIGTERM; its log:\n%s", container.tail(20)).isPresent();
            assertThat(stopped.get()).isLessThan(GRACE);
            assertThat(container.tail(40)).contains("Stopped");
        }
    }

    @Test
    void adminBindHostOpensTheAdminPort() throws Exception {
        Network.Host host = network.host("app2");
        try (Container container = Container.run(image, network.prefix() + "-app2", host, Map.of("ADMIN_BIND_HOST", "0.0.0.0"),
                WORK.resolve("app2"), WORK.resolve("app2.log"))) {
            URI admin = URI.create("http://" + host.address() + ":8081");
            awaitAnswer(container, admin.resolve("/ping"));
            HttpResponse<String> ping = get(admin.resolve("/ping"));
            assertThat(ping.statusCode()).isEqualTo(200);
            assertThat(ping.body()).contains("pong");
        }
    }

    private static void awaitAnswer(Container container, URI uri) throws InterruptedException {
        long until = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < until) {
            if (!container.isAlive()) {
                fail("the container ended before it answered; its log:\n" + container.tail(40));
            }
            try {
                if (get(uri).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        fail(uri + " did not answer within " + START.toSeconds() + " s; the container's log:\n" + container.tail(40));
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean refused(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 3_000);
            return false;
        } catch (ConnectException refused) {
            return true;
        } catch (IOException other) {
            return false;
        }
    }

    private static String uid(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream().filter(line -> line.startsWith("Uid:"))
                .map(line -> line.split("\\s+")[1]).findFirst().orElseThrow();
    }
}
