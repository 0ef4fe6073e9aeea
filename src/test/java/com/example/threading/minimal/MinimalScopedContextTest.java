package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.core.Configuration;
import io.dropwizard.testing.DropwizardTestSupport;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code MinimalScopedContext} in a bare Dropwizard application: the request's id, bound to a scoped value for the
 * request's extent, is inherited by two structured forks and reaches a pool thread only where the task carries it
 * (in the scoped value and the MDC there); 40 requests at once on 2 reused pool threads each see their own id, and an
 * uncarried task never sees one. The listing is compiled for JDK 25 with preview features
 * ({@code src/test/java25-preview}, for {@code StructuredTaskScope}), so this test runs on JDK 25 (the suite's JVM
 * there enables them) and is skipped below it.
 */
class MinimalScopedContextTest {

    private static final String APP_CLASS = "com.example.threading.minimal.MinimalScopedContextApp";
    private static final String HEADER = "X-Request-Id";

    private static DropwizardTestSupport<Configuration> app;
    private static LoopbackHttp http;

    @BeforeAll
    static void start() throws Exception {
        PreviewApps.assumeJdk25("MinimalScopedContext");
        app = PreviewApps.start(APP_CLASS, "minimal-scoped.");
        http = new LoopbackHttp();
    }

    @AfterAll
    static void stop() {
        PreviewApps.stop(http, app);
    }

    @Test
    void theForksInheritTheIdAndThePoolSeesItOnlyWhereCarried() {
        Answer answer = http.send(scoped("s-1"));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.header(HEADER)).isEqualTo("s-1");
        assertThat(answer.json().get("forked").toString()).isEqualTo("[\"s-1\",\"s-1\"]");
        assertThat(answer.json().get("carried").toString()).as("scoped value and MDC").isEqualTo("[\"s-1\",\"s-1\"]");
        assertThat(answer.json().get("uncarried").toString()).isEqualTo("[false,\"null\"]");
    }

    @Test
    void aBadIdIsReplaced() {
        Answer answer = http.send(scoped("no spaces allowed"));

        assertThat(answer.header(HEADER)).isNotEqualTo("no spaces allowed").hasSize(36);
        assertThat(answer.json().get("forked").get(0).asText()).isEqualTo(answer.header(HEADER));
    }

    @Test
    void manyRequestsOnTwoReusedPoolThreadsEachSeeTheirOwnAndLeaveNothingBound() throws Exception {
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            answers.add(http.sendAsync(scoped("many-" + i)));
        }
        for (int i = 0; i < 40; i++) {
            Answer answer = answers.get(i).get(30, TimeUnit.SECONDS);
            String own = "[\"many-" + i + "\",\"many-" + i + "\"]";
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.json().get("forked").toString()).isEqualTo(own);
            assertThat(answer.json().get("carried").toString()).isEqualTo(own);
            assertThat(answer.json().get("uncarried").toString()).isEqualTo("[false,\"null\"]");
        }
    }

    private static HttpRequest scoped(String id) {
        return LoopbackHttp.request(LoopbackHttp.url(app.getLocalPort(), "/minimal/scoped")).header(HEADER, id).build();
    }
}
