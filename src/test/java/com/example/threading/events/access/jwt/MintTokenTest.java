package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Prerequisites;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/mint-token.sh}, which the docs and the deployment's examples use to mint test tokens, run with bash and
 * openssl: the service's authenticator accepts what it prints, with the topics and lifetime asked, refuses it under
 * another secret, and the script refuses an entry that is not a topic name or prefix instead of quoting it.
 */
class MintTokenTest {

    private static final Path SCRIPT = Path.of("deploy", "mint-token.sh");
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    @BeforeAll
    static void openssl() {
        boolean onPath = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(folder -> Files.isExecutable(Path.of(folder, "openssl")));
        if (!onPath) {
            throw Prerequisites.unavailable("openssl is not installed", "apt-get install -y openssl");
        }
    }

    @Test
    void byDefaultEveryTopicAndBothActionsForAnHour() throws Exception {
        TopicPrincipal principal = service(SECRET).authenticate(run().out()).orElseThrow();

        assertThat(principal.subscribe().matches("room-1")).isTrue();
        assertThat(principal.publish().matches("anything")).isTrue();
        assertThat(principal.acceptedUntil()).isBetween(Instant.now().plusSeconds(3_500), Instant.now().plusSeconds(3_700));
        assertThat(service(SECRET.replace('0', '1')).authenticate(run().out())).as("another secret").isEmpty();
    }

    @Test
    void theTopicsAndLifetimeAsked() throws Exception {
        TopicPrincipal reader = service(SECRET).authenticate(run("room-1,lobby-*", "", "600").out()).orElseThrow();

        assertThat(reader.subscribe().matches("room-1")).isTrue();
        assertThat(reader.subscribe().matches("lobby-9")).isTrue();
        assertThat(reader.subscribe().matches("room-10")).isFalse();
        assertThat(reader.publish().matches("room-1")).isFalse();
        assertThat(reader.acceptedUntil()).isBefore(Instant.now().plusSeconds(700));
    }

    @Test
    void anEntryThatIsNotATopicIsRefused() throws Exception {
        Result refused = run("room\",\"*", "");

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.out()).contains("not a topic name or prefix*");
    }

    private static JwtAuthenticator service(String secret) {
        return new JwtAuthenticator(JWSAlgorithm.HS256, new ImmutableSecret<>(secret.getBytes(StandardCharsets.UTF_8)), null, null,
                Duration.ofSeconds(30));
    }

    private record Result(int exit, String out) {
    }

    private static Result run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder bash = new ProcessBuilder(command).redirectErrorStream(true);
        bash.environment().put("EVENTS_AUTH_SECRET", SECRET);
        Process process = bash.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), out);
    }
}
