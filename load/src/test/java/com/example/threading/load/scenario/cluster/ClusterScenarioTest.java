package com.example.threading.load.scenario.cluster;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.embedded.RedisServer;

/**
 * The cluster scenario in a tiny configuration, two instances with one killed half-way: once on a Redis the test
 * starts from embedded-redis's binary and hands over with {@code --redis-uri} (runs on any machine), once on a
 * redis-server the tool starts from the PATH (skipped where there is none).
 */
class ClusterScenarioTest {

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void everyFollowerGetsEveryEventOnceInOrderOnAGivenRedis(@TempDir Path out) throws Exception {
        int port = freePort();
        RedisServer redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        redis.start();
        try {
            JsonNode results = runKillingOne(out, "--redis-uri", "redis://127.0.0.1:" + port);
            assertThat(results.path("environment").path("Redis").asText()).contains("redis://127.0.0.1:" + port);
        } finally {
            redis.stop();
        }
    }

    @Test
    void everyFollowerGetsEveryEventOnceInOrderOnARedisItStarts(@TempDir Path out) throws Exception {
        try {
            new ProcessBuilder("redis-server", "--version").start().waitFor();
        } catch (IOException notInstalled) {
            Assumptions.abort("SKIPPED: redis-server is not on the PATH (apt-get install -y redis-server); "
                    + "the cluster scenario starts it when no --redis-uri is given");
        }
        JsonNode results = runKillingOne(out);
        assertThat(results.path("environment").path("Redis").asText()).contains("Redis server");
    }

    private static JsonNode runKillingOne(Path out, String... redisOptions) throws Exception {
        String[] options = {"--clients", "6", "--rate", "10", "--duration", "4s", "--poll-timeout", "2",
                "--kill-one", "--skip-in-process", "--max-duration", "120s"};
        String[] all = new String[options.length + redisOptions.length];
        System.arraycopy(options, 0, all, 0, options.length);
        System.arraycopy(redisOptions, 0, all, options.length, redisOptions.length);
        Path folder = ReportAssertions.run(out, "cluster", all);
        JsonNode results = assertReportFiles(folder);
        assertThat(folder.resolve("delivery-percentiles.png")).isNotEmptyFile();
        JsonNode phase = results.path("data").path("cluster").path("redis, 2 instances, one killed");
        assertThat(phase.path("published").asLong()).isGreaterThan(10);
        assertThat(phase.path("followers").asInt()).isEqualTo(6);
        assertThat(phase.path("lost").asLong()).isZero();
        assertThat(phase.path("duplicated").asLong()).isZero();
        assertThat(phase.path("outOfOrder").asLong()).isZero();
        assertThat(phase.path("killed").asText()).startsWith("http://127.0.0.1:");
        return results;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
