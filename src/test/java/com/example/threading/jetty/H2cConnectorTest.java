package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.AbstractConnectionPool;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The application port speaks HTTP/2 clear text (prior knowledge and Upgrade: h2c) next to HTTP/1.1. */
@ExtendWith(DropwizardExtensionsSupport.class)
class H2cConnectorTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"));

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP2 = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
    static final LoopbackHttp JDK_HTTP11 = new LoopbackHttp(java.net.http.HttpClient.Version.HTTP_1_1);
    static final LoopbackHttp JDK_UPGRADING = new LoopbackHttp(java.net.http.HttpClient.Version.HTTP_2);

    @BeforeAll
    static void startClient() throws Exception {
        HTTP2.start();
    }

    @AfterAll
    static void stopClients() throws Exception {
        HTTP2.stop();
        JDK_HTTP11.close();
        JDK_UPGRADING.close();
    }

    @Test
    void priorKnowledgeHttp2IsAnswered() throws Exception {
        ContentResponse response = HTTP2.newRequest(uri("/work/blocking?ms=1")).timeout(10, TimeUnit.SECONDS).send();

        assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(JSON.readTree(response.getContentAsString()).path("pattern").asText()).isEqualTo("blocking");
    }

    @Test
    void concurrentRequestsAreMultiplexedOnOneHttp2ConnectionAndRunInParallel() throws Exception {
        int streams = 20;
        // One request first, so the client has an HTTP/2 connection (and the server's SETTINGS) to multiplex onto.
        assertThat(HTTP2.newRequest(uri("/work/blocking?ms=1")).timeout(10, TimeUnit.SECONDS).send().getStatus()).isEqualTo(200);
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            responses.add(new CompletableResponseListener(
                    HTTP2.newRequest(uri("/work/blocking?ms=1000")).timeout(20, TimeUnit.SECONDS)).send());
        }
        Set<String> serverThreads = new HashSet<>();
        for (CompletableFuture<ContentResponse> future : responses) {
            ContentResponse response = future.get(30, TimeUnit.SECONDS);
            assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(response.getStatus()).isEqualTo(200);
            serverThreads.add(JSON.readTree(response.getContentAsString()).path("thread").asText().split(" - ")[0]);
        }
        // Each 1 s wait held its own Jetty thread at the same time: the streams were not serialised.
        assertThat(serverThreads).hasSize(streams);
        assertThat(HTTP2.getDestinations()).hasSize(1);
        AbstractConnectionPool pool = (AbstractConnectionPool) HTTP2.getDestinations().get(0).getConnectionPool();
        assertThat(pool.getConnectionCount()).isEqualTo(1);
    }

    @Test
    void http11StillWorksAndUpgradesToH2c() {
        LoopbackHttp.Answer plain = JDK_HTTP11.get(uri("/work/blocking?ms=1"));
        assertThat(plain.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
        assertThat(plain.status()).isEqualTo(200);

        // The JDK client asks for HTTP/2 on http:// with "Upgrade: h2c"; the connector switches protocols.
        LoopbackHttp.Answer upgraded = JDK_UPGRADING.get(uri("/work/blocking?ms=1"));
        assertThat(upgraded.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
        assertThat(upgraded.status()).isEqualTo(200);
    }

    private static String uri(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
