package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application connector's idle timeout (config.yml) is above the longest wait any endpoint accepts, with room for
 * a late answer: in Jetty 12.1 an idle expiry that meets an async answer as it completes can close the connection
 * unanswered or log a WARN ({@code errors.IdleExpiryRace} reproduces it on a bare Jetty; docs/errors.md). The longest
 * waits are read from the service's own 400s, so a bound raised in code without the timeout fails here.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IdleTimeoutTest {

    /** Room between the longest wait and the idle timeout: a wait's answer may come this much late on a busy machine. */
    private static final long ROOM_MS = 10_000;
    private static final Pattern LARGEST = Pattern.compile("(?:0\\.\\.|less than or equal to |between 1 and )(\\d+)( seconds)?");

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"));
    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void theApplicationConnectorOutwaitsTheLongestWaitEveryEndpointAccepts() {
        long idleMs = Arrays.stream(APP.getEnvironment().getApplicationContext().getServer().getConnectors())
                .map(ServerConnector.class::cast)
                .filter(connector -> connector.getLocalPort() == APP.getLocalPort())
                .findFirst().orElseThrow().getIdleTimeout();
        Map<String, Long> longest = new LinkedHashMap<>();
        for (String pattern : new String[] {"blocking", "thread-per-request", "cached", "bounded", "virtual"}) {
            longest.put("/work/" + pattern, largestAcceptedMs("/work/" + pattern + "?ms=99999999"));
        }
        longest.put("/fanout", largestAcceptedMs("/fanout?ms=99999999"));
        longest.put("/events", largestAcceptedMs("/events?timeout=99999999"));
        longest.put("/events/blocking", largestAcceptedMs("/events/blocking?timeout=99999999"));

        assertThat(longest).allSatisfy((path, ms) -> assertThat(ms + ROOM_MS)
                .as("%s accepts waits of up to %d ms; the idle timeout is %d ms", path, ms, idleMs)
                .isLessThanOrEqualTo(idleMs));
    }

    /** The bound a 400 for {@code pathAndQuery} states, in milliseconds. */
    private static long largestAcceptedMs(String pathAndQuery) {
        Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), pathAndQuery));
        assertThat(answer.status()).as(pathAndQuery + " -> " + answer.body()).isEqualTo(400);
        Matcher bound = LARGEST.matcher(answer.json().get("message").asText());
        assertThat(bound.find()).as("a bound in " + answer.body()).isTrue();
        long value = Long.parseLong(bound.group(1));
        return bound.group(2) != null ? value * 1_000 : value;
    }
}
