package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MinimalContext} in a bare Dropwizard application: a request's id reaches the pool thread that answers it,
 * a bad one is replaced, and 40 requests at once on 4 reused threads each see their own id, never another's.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MinimalContextTest {

    /** A copier's application: the listing's one line. */
    public static final class App extends Application<Configuration> {
        @Override
        public void run(Configuration configuration, Environment environment) {
            MinimalContext.register(environment);
        }
    }

    private static final DropwizardAppExtension<Configuration> APP = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void theIdReachesThePoolThread() {
        Answer answer = withId("m-1");

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.header(MinimalContext.HEADER)).isEqualTo("m-1");
        assertThat(answer.json().get("requestId").asText()).isEqualTo("m-1");
        assertThat(answer.json().get("thread").asText()).startsWith("minimal-context-");
    }

    @Test
    void aBadIdIsReplaced() {
        Answer answer = withId("no spaces allowed");

        assertThat(answer.header(MinimalContext.HEADER)).isNotEqualTo("no spaces allowed").hasSize(36);
        assertThat(answer.json().get("requestId").asText()).isEqualTo(answer.header(MinimalContext.HEADER));
    }

    @Test
    void manyRequestsOnFewReusedThreadsEachSeeTheirOwn() throws Exception {
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            answers.add(HTTP.sendAsync(LoopbackHttp.request(url()).header(MinimalContext.HEADER, "many-" + i).build()));
        }
        Set<String> threads = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            Answer answer = answers.get(i).get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.body()).isIn(200, 503);
            if (answer.status() == 200) {
                assertThat(answer.json().get("requestId").asText()).isEqualTo("many-" + i);
                threads.add(answer.json().get("thread").asText());
            }
        }
        assertThat(threads).as("the pool's 4 threads, reused").hasSizeLessThanOrEqualTo(4);
        assertThat(withoutId().json().get("requestId").asText()).as("a new id, none left over").hasSize(36);
    }

    private static Answer withId(String id) {
        return HTTP.send(LoopbackHttp.request(url()).header(MinimalContext.HEADER, id).build());
    }

    private static Answer withoutId() {
        return HTTP.get(url());
    }

    private static String url() {
        return LoopbackHttp.url(APP.getLocalPort(), "/minimal/context");
    }
}
