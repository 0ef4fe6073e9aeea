package com.example.threading.load.scenario.wave;

import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The /fanout table and results.json's {@code fanout}, from {@link FanoutCalls}: per call the client's time,
 * and from the service's JSON answer its elapsedMs, distinct threads and errors.
 */
final class FanoutView {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FanoutView() {
    }

    /** Adds the table and the data; throws if a 200 answer is not JSON. */
    static void present(Report report, FanoutCalls fanout) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (Map.Entry<String, List<FanoutCalls.Call>> entry : fanout.byVia().entrySet()) {
            String via = entry.getKey();
            List<Object> calls = new ArrayList<>();
            for (FanoutCalls.Call call : entry.getValue()) {
                SimpleHttp.Answer answer = call.answer();
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("status", answer.status());
                json.put("clientMs", LatencySummary.round(call.clientMs()));
                String elapsed = "–";
                String threads = "–";
                String errors = answer.status() == 0 ? answer.outcome().label() : "";
                if (answer.status() == 200) {
                    JsonNode body = JSON.readTree(answer.body());
                    elapsed = body.path("elapsedMs").asText("–");
                    threads = body.path("distinctThreads").asText("–");
                    JsonNode errorNode = body.path("errors");
                    errors = errorNode.isContainerNode() ? Integer.toString(errorNode.size()) : errorNode.asText("");
                    json.put("body", body);
                } else if (answer.status() != 0) {
                    errors = "HTTP " + answer.status();
                    json.put("body", answer.body());
                }
                calls.add(json);
                rows.add(List.of(via, Integer.toString(call.wave()), Report.num(Math.round(call.clientMs())), elapsed, threads, errors));
            }
            data.put(via, calls);
        }
        report.table(new Table("/fanout (n=" + fanout.n() + ", ms=" + fanout.ms() + ")",
                List.of("via", "wave", "client ms", "server elapsedMs", "distinct threads", "errors"), rows));
        report.data("fanout", data);
    }
}
