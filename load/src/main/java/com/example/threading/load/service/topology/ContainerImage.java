package com.example.threading.load.service.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The service's image, built from the repository's Dockerfile as written by {@code deploy/image/build} (buildah, its two
 * base images replaced by stand-ins built from Debian's packages, as no registry is reachable here) and unpacked into
 * an OCI bundle: its root file system, umoci's {@code config.json} (the image's user, environment, entrypoint and working
 * directory) and buildah's description of the image ({@code image.json}, which holds the HEALTHCHECK). {@link Container}
 * runs it.
 *
 * <p>Thread-safety: immutable once built; {@link #build} runs on the caller's thread.
 */
public final class ContainerImage {

    /** The Debian packages the image build and its containers need. */
    public static final String INSTALL = "apt-get install -y buildah runc umoci debootstrap";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A fresh machine builds the stand-ins too (debootstrap, JDK 17 and Maven, a copy of the Maven repository). */
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(20);

    private final Path bundle;
    private final JsonNode image;

    private ContainerImage(Path bundle, JsonNode image) {
        this.bundle = bundle;
        this.image = image;
    }

    /** What this machine lacks to build and run the image, one sentence each; empty when it can. */
    public static List<String> missing() {
        List<String> missing = new ArrayList<>();
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid)) {
                missing.add("not root (uid " + uid + "): buildah's storage, runc and network namespaces need root");
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            missing.add("not Linux, or /proc unreadable: " + e.getMessage());
        }
        for (String tool : List.of("buildah", "runc", "umoci", "debootstrap", "ip")) {
            if (!Prerequisites.onPath(tool)) {
                missing.add(tool + " is not on the PATH");
            }
        }
        return missing;
    }

    /** Builds the image of {@code repository} with its {@code deploy/image/build}, unpacked into {@code bundle}; the build's output goes to {@code log}. */
    public static ContainerImage build(Path repository, Path bundle, Path log) throws IOException, InterruptedException {
        Path script = repository.resolve("deploy/image/build");
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process build = new ProcessBuilder("bash", script.toString(), bundle.toAbsolutePath().toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!build.waitFor(BUILD_TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            build.destroyForcibly();
            throw new IOException(script + " did not end within " + BUILD_TIMEOUT.toMinutes() + " min; its output: " + log);
        }
        if (build.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log).stream().filter(line -> !line.isBlank()).toList();
            // The last line first: a summary (surefire's, CI's) shows a message's first line only.
            String last = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1).strip();
            throw new IOException(script + " exited with " + build.exitValue() + ": " + last + "\nits output's end (all: "
                    + log + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
        }
        return open(bundle);
    }

    /** An image {@code deploy/image/build} unpacked into {@code bundle} before. */
    public static ContainerImage open(Path bundle) throws IOException {
        for (String file : List.of("config.json", "image.json", "rootfs")) {
            if (!Files.exists(bundle.resolve(file))) {
                throw new IOException(bundle + " holds no " + file + ": not a bundle of deploy/image/build");
            }
        }
        JsonNode described = JSON.readTree(bundle.resolve("image.json").toFile());
        return new ContainerImage(bundle, described);
    }

    /** The bundle's root file system. */
    public Path rootfs() {
        return bundle.resolve("rootfs");
    }

    /** umoci's runtime config of the image. */
    public Path config() {
        return bundle.resolve("config.json");
    }

    /** The HEALTHCHECK's command as a shell runs it (its {@code CMD-SHELL} form). */
    public String healthcheck() {
        JsonNode test = image.path("Docker").path("config").path("Healthcheck").path("Test");
        if (!test.isArray() || test.size() < 2 || !test.get(0).asText().equals("CMD-SHELL")) {
            throw new IllegalStateException("the image has no HEALTHCHECK CMD: " + test);
        }
        return test.get(1).asText();
    }

    /** The image's environment ({@code ENV} of every stage it is made of), from its config. */
    public Map<String, String> environment() throws IOException {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (JsonNode entry : JSON.readTree(config().toFile()).path("process").path("env")) {
            String[] pair = entry.asText().split("=", 2);
            env.put(pair[0], pair.length > 1 ? pair[1] : "");
        }
        return env;
    }
}
