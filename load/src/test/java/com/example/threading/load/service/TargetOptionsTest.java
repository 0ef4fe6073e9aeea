package com.example.threading.load.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.load.LoadTool;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetOptionsTest {

    @Test
    void aMissingServiceJarIsReportedWithHowToBuildIt(@TempDir Path dir) {
        TargetOptions options = new TargetOptions();
        options.jar = dir.resolve("nope.jar");
        assertThatThrownBy(options::serviceJar).hasMessageContaining("does not exist");
    }

    @Test
    void onlyLoopbackTargetsAreAccepted(@TempDir Path out) {
        int status = LoadTool.run("limit", "--url", "http://192.0.2.1:8080", "--out", out.toString(), "--no-progress", "--rates", "1", "--step", "1s");
        assertThat(status).isNotZero();
    }

    @Test
    void aRunningServiceElsewhereThanLoopbackIsRefusedBeforeAnythingIsSent(@TempDir Path dir) {
        TargetOptions options = new TargetOptions();
        options.url = URI.create("http://192.0.2.1:8080");
        assertThatThrownBy(() -> options.open(dir, Map.of(), List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only loopback");
        options.url = URI.create("http://127.0.0.1:8080");
        options.adminUrl = URI.create("http://192.0.2.1:8081");
        assertThatThrownBy(() -> options.open(dir, Map.of(), List.of())).hasMessageContaining("only loopback");
    }

    @Test
    void aRunningServiceIsUsedAsItIsAndTheReportIsToldWhatWasNotApplied(@TempDir Path dir) throws Exception {
        TargetOptions options = new TargetOptions();
        options.url = URI.create("http://localhost:8080");
        try (Target target = options.open(dir, Map.of("JETTY_MAX_THREADS", "60"), List.of("-Ddw.x=1"))) {
            assertThat(target.applicationUri()).isEqualTo(options.url);
            assertThat(target.adminUri()).isEmpty();
            assertThat(target.serverCpu().measured()).isFalse();
            assertThat(target.facts()).isEmpty();
            assertThat(target.caveats()).hasSize(2);
            assertThat(target.caveats().get(0)).contains("were not applied").contains("JETTY_MAX_THREADS=60").contains("-Ddw.x=1");
            assertThat(target.caveats().get(1)).contains("--server-pid");
        }
        assertThat(options.runningService()).contains(options.url);
        assertThat(options.configHas("events")).as("a running service's config is not read").isFalse();
        try (Target target = options.open(dir, Map.of(), List.of())) {
            assertThat(target.caveats()).singleElement().asString().contains("--server-pid");
        }
        options.serverPid = ProcessHandle.current().pid();
        try (Target target = options.open(dir, Map.of(), List.of())) {
            assertThat(target.caveats()).isEmpty();
            assertThat(target.serverCpu().measured()).isTrue();
        }
    }

    @Test
    void aJvmOptionReachesTheStartedServiceAfterTheToolsOwnHeap(@TempDir Path dir) throws Exception {
        TargetOptions options = new TargetOptions();
        options.jvmOptions = List.of("-Xmx300m");
        try (Target target = options.open(dir, Map.of(), List.of())) {
            HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(target.adminUri().orElseThrow()
                    .resolve("/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            long maxHeap = new ObjectMapper().readTree(metrics.body()).path("gauges").path("jvm.memory.heap.max").path("value").asLong();
            assertThat(maxHeap).as("the service's -Xmx300m wins over the tool's -Xmx1g").isBetween(200L << 20, 300L << 20);
            assertThat(target.facts().get("service overrides")).contains("-Xmx300m");
        }
    }

    @Test
    void theConfigNextToTheJarsFolderSaysWhichSectionsItHas(@TempDir Path dir) throws Exception {
        Path jar = Files.createDirectories(dir.resolve("target")).resolve("threading-reference.jar");
        Files.writeString(jar, "not really a jar");
        Files.writeString(dir.resolve("config.yml"), "server:\n  type: default\nevents:\n  tickPeriod: 2s\n# workers: commented\n");
        TargetOptions options = new TargetOptions();
        options.jar = jar;
        assertThat(options.serviceJar()).isEqualTo(jar);
        assertThat(options.configHas("events")).isTrue();
        assertThat(options.configHas("server")).isTrue();
        assertThat(options.configHas("tickPeriod")).as("only top-level sections").isFalse();
        assertThat(options.configHas("workers")).isFalse();
        assertThat(options.runningService()).isEmpty();
    }
}
