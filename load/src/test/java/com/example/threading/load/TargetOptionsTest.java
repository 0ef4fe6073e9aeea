package com.example.threading.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
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
    void durationsReadAsPeopleTypeThem() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse("3m")).isEqualTo(Duration.ofMinutes(3));
        assertThat(Durations.parse("PT10S")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.format(Duration.ofSeconds(150))).isEqualTo("150s");
        assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("not a duration");
    }
}
