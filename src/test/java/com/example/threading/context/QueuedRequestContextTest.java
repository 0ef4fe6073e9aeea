package com.example.threading.context;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admission control with one place and one queued request: a request held in its queue resumes on another thread in
 * its own context (its work logs with its own request id), and the request refused for want of a place gets its
 * {@code 503} with its {@code X-Request-Id}. Then, with a 1 s work timeout, Jersey's timeout thread answers in the
 * request's context too.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class QueuedRequestContextTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("admission.maxRequests", "1"),
            ConfigOverride.config("admission.maxQueued", "1"),
            ConfigOverride.config("admission.maxQueueTime", "30s"),
            ConfigOverride.config("work.asyncTimeout", "1s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aQueuedRequestResumesInItsOwnContextAndARefusalCarriesItsId() throws Exception {
        log.debug("com.example.threading.work.SimulatedWork");
        CompletableFuture<Answer> holder = send("/work/blocking?ms=2000", "holder");
        Await.until(() -> gauge("admission.active") == 1, Duration.ofSeconds(20), "the one place taken");
        CompletableFuture<Answer> queued = send("/work/blocking?ms=0", "queued");
        Await.until(() -> gauge("admission.queued") == 1, Duration.ofSeconds(20), "the second request queued");

        Answer refused = send("/work/blocking?ms=0", "refused").get(20, TimeUnit.SECONDS);

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.header("X-Request-Id")).isEqualTo("refused");
        assertThat(holder.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
        Answer resumed = queued.get(20, TimeUnit.SECONDS);
        assertThat(resumed.status()).isEqualTo(200);
        assertThat(resumed.header("X-Request-Id")).isEqualTo("queued");
        ILoggingEvent work = lineOf("com.example.threading.work.SimulatedWork", "queued");
        assertThat(work.getFormattedMessage()).startsWith("blocking:");
    }

    @Test
    void jerseysTimeoutThreadAnswersInTheRequestsContext() throws Exception {
        log.debug("com.example.threading.work.AsyncWork");
        Answer timedOut = send("/work/cached?ms=10000", "too-slow").get(20, TimeUnit.SECONDS);

        assertThat(timedOut.status()).as(timedOut.body()).isEqualTo(503);
        assertThat(timedOut.header("X-Request-Id")).isEqualTo("too-slow");
        ILoggingEvent timeout = lineOf("com.example.threading.work.AsyncWork", "too-slow");
        assertThat(timeout.getFormattedMessage()).contains("no answer within");
        assertThat(timeout.getMDCPropertyMap()).containsKey(RequestContext.MDC_TRACE_ID);
    }

    private ILoggingEvent lineOf(String logger, String requestId) {
        return log.firstWithMdc(logger, RequestContext.MDC_REQUEST_ID, requestId);
    }

    private static CompletableFuture<Answer> send(String pathAndQuery, String requestId) {
        return HTTP.sendAsync(LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), pathAndQuery))
                .header("X-Request-Id", requestId).build());
    }

    private static long gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).longValue();
    }
}
