package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A loopback HTTP/1.1 client sized for many concurrent polls (one connection each); bodies are always read fully. */
final class HttpTestClient {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final String base;

    HttpTestClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** Sends a GET without waiting for the answer. */
    CompletableFuture<HttpResponse<String>> getAsync(String pathAndQuery) {
        return client.sendAsync(request(pathAndQuery).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String pathAndQuery) {
        return send(request(pathAndQuery).GET().build());
    }

    HttpResponse<String> publish(String json, String token) {
        return send(publishRequest(json, token));
    }

    HttpRequest publishRequest(String json, String token) {
        HttpRequest.Builder builder = request("/events")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder.build();
    }

    HttpClient client() {
        return client;
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(90));
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
