package com.example.threading.longpoll.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Prerequisites;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shell lines docs/longpoll-auth.md gives for minting a test token ("Minting a token for a test"), run as written
 * (all but the {@code curl}) with {@code bash} and {@code openssl}: the service's authenticator accepts what they make,
 * for every topic, and refuses it under another secret.
 */
class MintTokenTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    @Test
    void theDocumentedLinesMakeATokenTheServiceAccepts() throws Exception {
        if (!onPath("openssl")) {
            throw Prerequisites.unavailable("openssl is not installed", "apt-get install -y openssl");
        }
        String token = mint(documentedLines());

        JwtAuthenticator service = new JwtAuthenticator(JWSAlgorithm.HS256, new ImmutableSecret<>(SECRET.getBytes(StandardCharsets.UTF_8)),
                null, null, Duration.ofSeconds(30));
        TopicPrincipal tester = service.authenticate(token).orElseThrow();
        assertThat(tester.getName()).isEqualTo("tester");
        assertThat(tester.subscribe().matches("room-1")).isTrue();
        assertThat(tester.publish().matches("anything")).isTrue();
        JwtAuthenticator other = new JwtAuthenticator(JWSAlgorithm.HS256, new ImmutableSecret<>(SECRET.replace('0', '1')
                .getBytes(StandardCharsets.UTF_8)), null, null, Duration.ofSeconds(30));
        assertThat(other.authenticate(token)).isEmpty();
    }

    private static boolean onPath(String command) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(folder -> Files.isExecutable(Path.of(folder, command)));
    }

    /** The bash block of the section, without its curl line. */
    private static String documentedLines() throws IOException {
        String page = Files.readString(Path.of("docs", "longpoll-auth.md"));
        int section = page.indexOf("### Minting a token for a test");
        int start = page.indexOf("```bash\n", section) + "```bash\n".length();
        String block = page.substring(start, page.indexOf("```", start));
        assertThat(block).contains("openssl dgst -sha256 -hmac \"$EVENTS_AUTH_SECRET\"").contains("TOKEN=");
        return block.lines().filter(line -> !line.startsWith("curl")).reduce("", (all, line) -> all + line + "\n");
    }

    private static String mint(String lines) throws IOException, InterruptedException {
        ProcessBuilder bash = new ProcessBuilder("bash", "-c", lines + "printf '%s' \"$TOKEN\"\n").redirectErrorStream(true);
        bash.environment().put("EVENTS_AUTH_SECRET", SECRET);
        Process process = bash.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return out.trim();
    }
}
