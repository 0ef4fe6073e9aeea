package com.example.threading.jetty;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Sends waves of concurrent HTTP/1.1 requests to {@code /work/blocking} and counts the 200s. */
final class RequestBurst {

    private final HttpClient client;
    private final int appPort;

    RequestBurst(HttpClient client, int appPort) {
        this.client = client;
        this.appPort = appPort;
    }

    /** {@code waves} rounds of {@code concurrency} requests each, every request blocking its Jetty thread {@code ms}; returns how many answered 200. */
    int send(int waves, int concurrency, int ms) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + appPort + "/work/blocking?ms=" + ms))
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(Duration.ofSeconds(20))
                .build();
        int ok = 0;
        for (int wave = 0; wave < waves; wave++) {
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> response : responses) {
                if (response.get(30, TimeUnit.SECONDS).statusCode() == 200) {
                    ok++;
                }
            }
        }
        return ok;
    }
}
