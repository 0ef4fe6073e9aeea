package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The service's image, built once per test JVM by {@code deploy/image/build} into {@code target/image/} and shared by the
 * tests that run it ({@code ImageCheckTest}, the topology scenario's). Under {@code CI=true} a machine that cannot build it
 * fails the test; elsewhere the test is skipped with what is missing and the install command. With
 * {@code THREADING_IMAGE_BUNDLE} set (CI builds the image beside the service suite), the tests run that bundle instead.
 */
public final class BuiltImage {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Path FOLDER = Path.of("target", "image").toAbsolutePath();
    private static ContainerImage built;

    private BuiltImage() {
    }

    /** The image, built on the first call. */
    public static synchronized ContainerImage get() throws Exception {
        String prebuilt = System.getenv("THREADING_IMAGE_BUNDLE");
        if (built == null && prebuilt != null && !prebuilt.isBlank()) {
            built = ContainerImage.open(Path.of(prebuilt).toAbsolutePath());
        }
        if (built == null) {
            List<String> missing = ContainerImage.missing();
            if (!missing.isEmpty()) {
                String message = "building and running the image needs root and Debian's buildah, runc, umoci, debootstrap: "
                        + String.join("; ", missing) + ". Install with: " + ContainerImage.INSTALL + " (and run as root)";
                if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                    fail("CI=true: " + message);
                }
                Assumptions.abort("SKIPPED: " + message);
            }
            built = ContainerImage.build(REPOSITORY, FOLDER.resolve("bundle"), FOLDER.resolve("build.log"));
        }
        return built;
    }

    /** The folder of the built image's bundle. */
    public static Path bundle() {
        String prebuilt = System.getenv("THREADING_IMAGE_BUNDLE");
        return prebuilt != null && !prebuilt.isBlank() ? Path.of(prebuilt).toAbsolutePath() : FOLDER.resolve("bundle");
    }
}
