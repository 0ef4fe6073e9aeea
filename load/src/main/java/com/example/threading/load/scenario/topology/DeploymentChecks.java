package com.example.threading.load.scenario.topology;

import com.example.threading.load.service.topology.HaproxyStats;
import com.example.threading.load.service.topology.Topology;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The deployment checked against its documentation before any load: what a new user would try first. Publishing and
 * polling through the balancer need a JWT (without one: 401; with one for another topic: 403); with one, the event
 * published can be polled back through the balancer;
 * each instance is ready on its application port and its admin port is not reachable from another host; HAProxy
 * started without a file-descriptor warning and has every instance in rotation after a passed check.
 */
final class DeploymentChecks {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private DeploymentChecks() {
    }

    /** Runs every check against the started {@code topology}, whose instances verify tokens signed by {@code tokens}. */
    static List<DeploymentCheck> run(Topology topology, EventTokens tokens) throws IOException, InterruptedException {
        List<DeploymentCheck> checks = new ArrayList<>();
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        URI events = topology.balancerUri().resolve("/events");
        String token = tokens.everyTopic(Duration.ofMinutes(10));
        String otherTopic = tokens.mint(List.of("another-topic"), List.of("another-topic"), Duration.ofMinutes(10));

        HttpResponse<String> anonymous = send(client, post(events, "{\"check\":\"no token\"}").build());
        checks.add(new DeploymentCheck("publish through the balancer without the token", "401", Integer.toString(anonymous.statusCode()),
                anonymous.statusCode() == 401));

        HttpResponse<String> wrongTopic = send(client, post(events, "{\"check\":\"other topic\"}")
                .header("Authorization", "Bearer " + otherTopic).build());
        checks.add(new DeploymentCheck("publish through the balancer with a token for another topic", "403",
                Integer.toString(wrongTopic.statusCode()), wrongTopic.statusCode() == 403));

        HttpResponse<String> published = send(client, post(events, "{\"check\":\"token\"}").header("Authorization", "Bearer " + token).build());
        long id = published.statusCode() == 200 ? JSON.readTree(published.body()).path("id").asLong(-1) : -1;
        checks.add(new DeploymentCheck("publish through the balancer with the token", "200 with an id",
                published.statusCode() + (id >= 0 ? " with id " + id : ""), id >= 0));

        URI poll = events.resolve("/events?after=" + (id - 1) + "&timeout=5");
        HttpResponse<String> anonymousPoll = send(client, HttpRequest.newBuilder(poll).timeout(TIMEOUT).build());
        checks.add(new DeploymentCheck("poll through the balancer without a token", "401", Integer.toString(anonymousPoll.statusCode()),
                anonymousPoll.statusCode() == 401));

        HttpResponse<String> polled = send(client, HttpRequest.newBuilder(poll).header("Authorization", "Bearer " + token)
                .timeout(TIMEOUT).build());
        JsonNode first = polled.statusCode() == 200 ? JSON.readTree(polled.body()).path("events").path(0) : JSON.missingNode();
        checks.add(new DeploymentCheck("poll that event through the balancer", "200 with id " + id,
                polled.statusCode() + (first.isMissingNode() ? "" : " with id " + first.path("id").asLong()), first.path("id").asLong() == id));

        for (String instance : topology.instances()) {
            HttpResponse<String> ready = send(client, HttpRequest.newBuilder(topology.instanceUri(instance).resolve("/ready")).timeout(TIMEOUT).build());
            checks.add(new DeploymentCheck("GET /ready on " + instance + "'s application port", "200", ready.statusCode() + " " + ready.body(),
                    ready.statusCode() == 200));
            URI admin = topology.instanceAdminUri(instance);
            String reached = connect(admin);
            checks.add(new DeploymentCheck(instance + "'s admin port from another host (" + admin.getHost() + ":" + admin.getPort() + ")",
                    "not reachable (on the instance's loopback)", reached, !reached.equals("connected")));
        }

        String haproxyLog = Files.readString(topology.log(topology.balancerService()));
        boolean fdWarning = haproxyLog.contains("FD limit");
        checks.add(new DeploymentCheck("HAProxy starts with the shipped maxconn under the compose file's nofile", "no file-descriptor warning",
                fdWarning ? "warned: " + haproxyLog.lines().filter(l -> l.contains("FD limit")).findFirst().orElse("") : "none",
                !fdWarning));

        List<HaproxyStats.ServerState> servers = HaproxyStats.read(topology.statsSocket());
        checks.add(new DeploymentCheck("HAProxy's health checks", "every instance UP after a passed check (L7OK)", servers.toString(),
                servers.size() == topology.instances().size() && servers.stream().allMatch(HaproxyStats.ServerState::checkedUp)));
        return checks;
    }

    private static HttpRequest.Builder post(URI events, String json) {
        return HttpRequest.newBuilder(events).timeout(TIMEOUT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String connect(URI uri) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
            return "connected";
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
