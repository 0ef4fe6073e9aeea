package com.example.threading.load.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.load.LoadTool;
import java.nio.file.Path;
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
}
