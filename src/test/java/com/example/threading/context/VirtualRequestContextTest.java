package com.example.threading.context;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import com.example.threading.testing.RawHttpConnection.Reply;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With {@code serverVirtualThreads.enabled} (JDK 21+; on JDK 17 the service refuses the setting), each request runs on
 * a virtual thread of Jetty's: the request's context is current there, and goes on with it to a pattern's pool.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualRequestContextTest {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("serverVirtualThreads.enabled", "true"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aRequestOnAVirtualThreadWorksInItsOwnContext() {
        log.debug("com.example.threading.work.SimulatedWork");
        Answer answer = get("/work/blocking?ms=5", "on-virtual");

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().path("virtualThread").asBoolean()).as("the request ran on a virtual thread: " + answer.body()).isTrue();
        ILoggingEvent waited = lineOf("on-virtual");
        assertThat(waited.getThreadName()).isEqualTo(answer.json().path("thread").asText());
        assertThat(waited.getMDCPropertyMap().get(RequestContext.MDC_TRACE_ID)).isEqualTo(TRACE_ID);
    }

    @Test
    void theContextGoesOnFromAVirtualRequestThreadToAPatternsPool() {
        log.debug("com.example.threading.work.SimulatedWork");
        Answer answer = get("/work/cached?ms=5", "virtual-to-cached");

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().path("thread").asText()).startsWith("work-cached-");
        ILoggingEvent waited = lineOf("virtual-to-cached");
        assertThat(waited.getThreadName()).isEqualTo(answer.json().path("thread").asText());
        assertThat(waited.getMDCPropertyMap().get(RequestContext.MDC_TRACE_ID)).isEqualTo(TRACE_ID);
    }

    @Test
    void aRequestQueuedBehindAnAsyncAnswerRunsOnAVirtualThreadToo() throws JsonProcessingException {
        // Pipelined, so the second request waits in the connection's buffer while the first is answered from the
        // work-cached pool. Jetty 12.1.14 then resumes the connection on its platform pool, which would run the
        // second request on a platform thread; the service's connections resume on the virtual-thread executor.
        String both = RawHttpConnection.requestHead("GET", "/work/cached?ms=5")
                + RawHttpConnection.requestHead("GET", "/work/blocking?ms=5", "Connection: close");
        String raw;
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            raw = connection.send(both).readToEnd();
        }
        Reply second = Reply.parse(raw.substring(raw.lastIndexOf("HTTP/1.1 ")));

        assertThat(second.status()).as(raw).isEqualTo(200);
        JsonNode body = APP.getObjectMapper().readTree(second.body());
        assertThat(body.path("virtualThread").asBoolean()).as("the second request ran on a virtual thread: " + body).isTrue();
    }

    private ILoggingEvent lineOf(String requestId) {
        return log.firstWithMdc("com.example.threading.work.SimulatedWork", RequestContext.MDC_REQUEST_ID, requestId);
    }

    private static Answer get(String pathAndQuery, String requestId) {
        return HTTP.send(LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), pathAndQuery)).header("X-Request-Id", requestId)
                .header("traceparent", "00-" + TRACE_ID + "-b7ad6b7169203331-01").build());
    }
}
