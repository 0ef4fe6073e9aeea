package com.example.threading.fuzz;

import com.example.threading.fuzz.FuzzRequest.Framing;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * The generators of the fuzz suite: every endpoint of the service with every parameter it reads (from
 * {@code WorkBundle}, {@code FanoutBundle}, {@code EventsBundle} and its access policy, and the admin port), values at
 * and around every bound
 * and hostile ones (huge, negative, not numbers, Unicode, NUL, invalid UTF-8, repeated), random methods, content
 * types, headers and bodies (truncated, chunked, oversized, invalid UTF-8, deeply nested JSON).
 *
 * <p>Valid waits are kept short so that a run stays within its time budget: {@code ms} is never generated in
 * 301..60000, and a {@code /fanout} of more than 10 calls waits 0 or 1 ms per call (the service accepts all of these;
 * {@link ServiceFuzzTest} probes the longest valid waits once, at the start).
 *
 * <p>Thread-safety: stateless; jqwik calls it from the test thread.
 */
final class FuzzInputs {

    /** The bearer token the fuzzed service is configured with. */
    static final String TOKEN = "fuzz-token";
    /** {@code events.maxTimeout} of the fuzzed service, in seconds. */
    static final int MAX_POLL_SECONDS = 3;

    // /events/ws takes a poll's query; without Upgrade: websocket it answers 400 after checking it, as JSON.
    private static final Arbitrary<String> POLL_PATHS = Arbitraries.of("/events", "/events/blocking", "/events/ws");
    private static final Arbitrary<String> STREAM_PATH = Arbitraries.just("/events/stream");
    private static final List<String> PATTERNS = List.of("blocking", "thread-per-request", "cached", "bounded", "virtual");
    private static final List<String> METHODS = List.of("HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE",
            "CONNECT", "FOO", "get", "M-SEARCH", "PROPFIND", "G\u00c9T", "GET\tX");
    private static final List<String> HOSTILE = List.of("", " ", "abc", "1e3", "0x10", "+5", "-0", "00000000001",
            "1.5", "1,2", "1;2", "NaN", "Infinity", "null", "true", "[]", "{}", "\u0663", "\uff11", "\u00b2", "😀",
            "\u202e1", "\u0000", "1\u0000", "%00", "%FF%FE", "%", "%%", "%G0", "%2B1", "2147483647", "2147483648",
            "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
            "99999999999999999999999999999999", "9".repeat(5_000), "'; DROP TABLE x;--", "<script>", "../../etc/passwd");

    private static final ObjectMapper JSON = new ObjectMapper();

    private FuzzInputs() {
    }

    /** One request to any endpoint of either port, or to a path that does not exist. */
    static Arbitrary<FuzzRequest> requests() {
        return Arbitraries.frequencyOf(
                Tuple.of(5, work()),
                Tuple.of(3, fanout()),
                Tuple.of(3, poll()),
                Tuple.of(4, publish()),
                Tuple.of(2, publishBatch()),
                Tuple.of(2, admin()),
                Tuple.of(2, strayPath()));
    }

    static Arbitrary<FuzzRequest> work() {
        return Combinators.combine(Arbitraries.of(PATTERNS), method(), query(param("ms", waitMs())), extraHeaders())
                .as((pattern, method, query, headers) -> request("GET /work/" + pattern, false, method,
                        "/work/" + pattern + query, headers, new byte[0], Framing.NONE));
    }

    static Arbitrary<FuzzRequest> fanout() {
        Arbitrary<String> n = Arbitraries.oneOf(bound(0, 1, 2, 10, 999, 1000, 1001), Arbitraries.of(HOSTILE));
        Arbitrary<String> via = Arbitraries.of("managed", "rxjava", "callback", "common", "MANAGED", "", "bogus",
                "managed\u0000", "c\u00f6mmon");
        return Combinators.combine(method(), n.optional(), waitMs().optional(), via.optional(), extraHeaders())
                .as((method, count, ms, how, headers) -> {
                    List<String> pairs = new ArrayList<>();
                    Optional<String> calls = count;
                    calls.ifPresent(value -> pairs.add(pair("n", value)));
                    // Many calls must each be quick: the service accepts n=1000 with ms=60000 (1000 threads for a minute).
                    String wait = ms.orElse(null);
                    if (manyCalls(calls.orElse("100")) && (wait == null || shortValidWait(wait))) {
                        wait = "0";
                    }
                    if (wait != null) {
                        pairs.add(pair("ms", wait));
                    }
                    how.ifPresent(value -> pairs.add(pair("via", value)));
                    return request("GET /fanout", false, method, "/fanout" + joined(pairs), headers, new byte[0], Framing.NONE);
                });
    }

    /** A poll with any credentials, valid or hostile, in the header, the query, both or neither. */
    static Arbitrary<FuzzRequest> poll() {
        return poll(POLL_PATHS, authorization(), accessTokens());
    }

    /** A poll with the {@code Authorization} header {@code line} and no {@code access_token}: its query is what varies. */
    static Arbitrary<FuzzRequest> poll(String line) {
        return poll(POLL_PATHS, Arbitraries.just(List.of(line)), Arbitraries.just(List.of()));
    }

    /**
     * An event stream ({@code /events/stream}) with a poll's query and any credentials, as {@link #poll()}. One that is
     * admitted stays open until the service ends it: only for a service with a short {@code sse.maxLifetime}.
     */
    static Arbitrary<FuzzRequest> stream() {
        return poll(STREAM_PATH, authorization(), accessTokens());
    }

    /** An event stream with the {@code Authorization} header {@code line} and no {@code access_token}, as {@link #poll(String)}. */
    static Arbitrary<FuzzRequest> stream(String line) {
        return poll(STREAM_PATH, Arbitraries.just(List.of(line)), Arbitraries.just(List.of()));
    }

    private static Arbitrary<FuzzRequest> poll(Arbitrary<String> paths, Arbitrary<List<String>> authorization,
                                               Arbitrary<List<String>> accessTokens) {
        Arbitrary<String> after = Arbitraries.oneOf(bound(0, 1, 1_000_000), Arbitraries.of(HOSTILE));
        Arbitrary<String> timeout = Arbitraries.oneOf(bound(0, 1, MAX_POLL_SECONDS), Arbitraries.of(HOSTILE));
        return Combinators.combine(paths, method(), after.optional(),
                        epoch().optional(), timeout.optional(), topics(), Combinators.combine(extraHeaders(), authorization)
                                .as(FuzzInputs::concat), accessTokens)
                .as((path, method, since, epoch, wait, topics, headers, tokens) -> {
                    List<String> pairs = new ArrayList<>();
                    topics.forEach(topic -> pairs.add(pair("topic", topic)));
                    since.ifPresent(value -> pairs.add(pair("after", value)));
                    epoch.ifPresent(value -> pairs.add(pair("epoch", value)));
                    // A poll without timeout waits the configured default (2 s); one with a valid one at most 3 s.
                    wait.ifPresent(value -> pairs.add(pair("timeout", value)));
                    tokens.forEach(value -> pairs.add(pair("access_token", value)));
                    return request("GET " + path, false, method, path + joined(pairs), headers, new byte[0], Framing.NONE);
                });
    }

    /**
     * {@code Authorization} header lines: none (often), one bearer token (valid or hostile, {@link FuzzTokens}), another
     * scheme, a scheme without a token, or two headers at once.
     */
    static Arbitrary<List<String>> authorization() {
        Arbitrary<String> token = Arbitraries.of(FuzzTokens.TOKENS);
        Arbitrary<String> line = Arbitraries.oneOf(token.map(t -> "Authorization: Bearer " + t),
                token.map(t -> "Authorization: bearer  " + t + " "), Arbitraries.of("Authorization: Bearer", "Authorization: Bearer ",
                        "Authorization: Basic Zm9vOmJhcg==", "Authorization: Bearer " + TOKEN, "Authorization: " + "x".repeat(3_000),
                        "Authorization: Bearer \u0000", "Authorization: Bearer a b c"));
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(List.<String>of())), Tuple.of(4, line.list().ofSize(1)),
                Tuple.of(1, line.list().ofSize(2)));
    }

    /** {@code access_token} values of a poll: none (mostly), one (a token or a hostile string), or two. */
    static Arbitrary<List<String>> accessTokens() {
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.of(FuzzTokens.TOKENS), Arbitraries.of(HOSTILE));
        return Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.just(List.<String>of())), Tuple.of(3, value.list().ofSize(1)),
                Tuple.of(1, value.list().ofSize(2)));
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /** An {@code epoch} value: well-formed ones (of no history the service holds) and hostile ones. */
    static Arbitrary<String> epoch() {
        return Arbitraries.oneOf(Arbitraries.of("mi2x9k1c-1", "0", "e-e-e", "x".repeat(32)), Arbitraries.of(HOSTILE),
                Arbitraries.of("", "x".repeat(33), "a:b", "a b", "\u00e9"));
    }

    static Arbitrary<FuzzRequest> publish() {
        return Combinators.combine(Arbitraries.of("POST", "POST", "POST", "PUT", "PATCH"), publishContentType(), publishAuthorization(),
                        body(), Arbitraries.of(Framing.class), topics().filter(topics -> topics.size() <= 2), extraHeaders())
                .as((method, type, auth, body, framing, topics, headers) -> {
                    List<String> pairs = new ArrayList<>();
                    topics.forEach(topic -> pairs.add(pair("topic", topic)));
                    return request("POST /events", false, method, "/events" + joined(pairs), publishHead(headers, type, auth),
                            body, framing);
                });
    }

    /** {@code POST /events/batch}: arrays of events on valid and hostile topics, bodies that are no batch, a query topic now and then. */
    static Arbitrary<FuzzRequest> publishBatch() {
        Arbitrary<String> topic = Arbitraries.of("room-1", "room-2", "item.7", "t".repeat(64), "", "a b", "t".repeat(65),
                "caf\u00e9", "\u0000", "room-1:3");
        Arbitrary<String> data = Arbitraries.of("{\"a\":1}", "[]", "1", "\"x\"", "null", "{}", "\"" + "x".repeat(4_100) + "\"");
        Arbitrary<String> event = Arbitraries.frequencyOf(
                Tuple.of(6, Combinators.combine(topic, data).as((t, d) -> "{\"topic\":" + jsonString(t) + ",\"data\":" + d + "}")),
                Tuple.of(2, data.map(d -> "{\"data\":" + d + "}")),
                Tuple.of(1, Arbitraries.of("{}", "{\"topic\":\"room-1\"}", "{\"data\":1,\"x\":2}", "{\"topic\":7,\"data\":1}", "1", "[]",
                        "{\"data\":1,\"data\":2}")));
        Arbitrary<byte[]> events = event.list().ofMinSize(0).ofMaxSize(60)
                .map(list -> utf8(list.stream().collect(Collectors.joining(",", "[", "]"))));
        Arbitrary<byte[]> batchBody = Arbitraries.frequencyOf(Tuple.of(5, events), Tuple.of(2, body()));
        Arbitrary<String> query = Arbitraries.of("", "", "", "?topic=room-1", "?x=1");
        return Combinators.combine(Arbitraries.of("POST", "POST", "POST", "PUT", "GET"), publishContentType(), publishAuthorization(),
                        batchBody, Arbitraries.of(Framing.class), query, extraHeaders())
                .as((method, type, auth, body, framing, q, headers) -> request("POST /events/batch", false, method,
                        "/events/batch" + q, publishHead(headers, type, auth), body, framing));
    }

    /** {@code text} as a JSON string, escaped. */
    private static String jsonString(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Arbitrary<String> publishContentType() {
        return Arbitraries.of("Content-Type: application/json",
                "Content-Type: application/json; charset=utf-8", "Content-Type: application/cloudevents+json",
                "Content-Type: text/plain", "Content-Type: a/b/c", "Content-Type: ;;;", "Content-Type: ",
                "Content-Type: application/json; charset=koi8-r", "Content-Type: multipart/form-data; boundary=x", "");
    }

    private static Arbitrary<String> publishAuthorization() {
        return Arbitraries.of("Authorization: Bearer " + TOKEN, "Authorization: Bearer " + TOKEN,
                "Authorization: Bearer wrong", "Authorization: Basic Zm9vOmJhcg==", "Authorization: Bearer",
                "Authorization: " + "x".repeat(3_000), "", "Authorization: Bearer " + FuzzTokens.EVERY_TOPIC,
                "Authorization: Bearer " + FuzzTokens.ROOM_1, "Authorization: Bearer " + FuzzTokens.UNSIGNED,
                "Authorization: Bearer " + FuzzTokens.EXPIRED);
    }

    private static List<String> publishHead(List<String> headers, String type, String auth) {
        List<String> lines = new ArrayList<>(headers);
        if (!type.isEmpty()) {
            lines.add(type);
        }
        if (!auth.isEmpty()) {
            lines.add(auth);
        }
        return lines;
    }

    /**
     * The {@code topic} values of a request: none (the default topic), or 1–6 of valid names (a few, so they repeat),
     * names with cursors ({@code a:3}), bad cursors, and hostile names (too long, empty, spaces, Unicode, separators).
     */
    static Arbitrary<List<String>> topics() {
        Arbitrary<String> name = Arbitraries.of("room-1", "room-2", "item.7", "A_b-c.9", "t".repeat(64));
        Arbitrary<String> cursor = Arbitraries.oneOf(bound(0, 1, 1_000_000), Arbitraries.of(HOSTILE));
        Arbitrary<String> hostile = Arbitraries.of("", " ", "a b", "t".repeat(65), "room/1", "caf\u00e9", "\u0000", "a:", ":3",
                "a:b:c", "a::1", "%", "{x}", "*", "..");
        Arbitrary<String> topic = Arbitraries.frequencyOf(
                Tuple.of(4, name),
                Tuple.of(4, Combinators.combine(name, cursor).as((n, c) -> n + ":" + c)),
                Tuple.of(1, Combinators.combine(name, cursor, epoch()).as((n, c, e) -> n + ":" + c + ":" + e)),
                Tuple.of(2, hostile));
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(List.<String>of())), Tuple.of(4, topic.list().ofMinSize(1).ofMaxSize(6)));
    }

    static Arbitrary<FuzzRequest> admin() {
        Arbitrary<String> path = Arbitraries.of("/metrics", "/metrics?pretty=true", "/prometheus", "/healthcheck",
                "/threads", "/ping", "/tasks/gc", "/tasks/nope", "/", "/nope", "/metrics/x", "/%ZZ", "/metrics?" + "a=1&".repeat(500));
        return Combinators.combine(path, Arbitraries.of("GET", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "FOO"), extraHeaders())
                .as((target, method, headers) -> request("admin " + method + " " + target.split("\\?")[0], true, method,
                        target, headers, new byte[0], Framing.NONE));
    }

    static Arbitrary<FuzzRequest> strayPath() {
        Arbitrary<String> path = Arbitraries.of("/", "/work", "/work/", "/work/nope", "/events/", "/events/blocking/x",
                "//work/cached?ms=1", "/work/../events?timeout=1", "/work/%2e%2e/events?timeout=1", "/%ZZ", "/%00", "/a%2Fb",
                "/\u00e9v\u00e9nements", "/work/cached;jsessionid=x?ms=1", "*", "http://127.0.0.1/work/cached?ms=1",
                "/work/cached?ms=1#fragment", "/" + "x".repeat(9_000), "/work/cached?ms=1&" + "p=1&".repeat(3_000));
        return Combinators.combine(path, method(), extraHeaders())
                .as((target, method, headers) -> request("stray " + method, false, method, target, headers, new byte[0], Framing.NONE));
    }

    private static FuzzRequest request(String endpoint, boolean admin, String method, String target, List<String> headers,
                                       byte[] body, Framing framing) {
        boolean withBody = framing != Framing.NONE;
        return new FuzzRequest(endpoint, admin, method, target, headers, withBody ? body : new byte[0], framing);
    }

    /** GET mostly (what the endpoints answer), any other method, valid or not, now and then. */
    private static Arbitrary<String> method() {
        return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just("GET")), Tuple.of(2, Arbitraries.of(METHODS)));
    }

    /** {@code ms} values: bounds and neighbours, short valid waits, hostile strings. */
    private static Arbitrary<String> waitMs() {
        return Arbitraries.oneOf(Arbitraries.of("-1", "0", "1", "2", "50", "300", "60001", "60002", "-60000"),
                Arbitraries.integers().between(0, 300).map(String::valueOf), Arbitraries.of(HOSTILE));
    }

    /** Each bound, one below and one above. */
    private static Arbitrary<String> bound(long... bounds) {
        List<String> values = new ArrayList<>();
        for (long bound : bounds) {
            values.add(String.valueOf(bound - 1));
            values.add(String.valueOf(bound));
            values.add(String.valueOf(bound + 1));
        }
        return Arbitraries.of(values);
    }

    /** A parameter absent, once, or repeated, its name sometimes in another case or encoded. */
    private static Arbitrary<List<String>> param(String name, Arbitrary<String> value) {
        Arbitrary<String> names = Arbitraries.of(name, name, name, name.toUpperCase(), name + "[]", "%" + Integer.toHexString(name.charAt(0)) + name.substring(1));
        Arbitrary<String> one = Combinators.combine(names, value).as(FuzzInputs::pair);
        return one.list().ofMinSize(0).ofMaxSize(3);
    }

    /** The pairs, plus sometimes an unknown parameter, as {@code ?a=b&c=d} (or nothing). */
    private static Arbitrary<String> query(Arbitrary<List<String>> pairs) {
        return Combinators.combine(pairs, Arbitraries.of("", "", "", "x=1", "=", "&&", "ms", "%ZZ=1"))
                .as((list, extra) -> {
                    List<String> all = new ArrayList<>(list);
                    if (!extra.isEmpty()) {
                        all.add(extra);
                    }
                    return joined(all);
                });
    }

    /** {@code name=value}: the value percent-encoded, or (rarely) sent raw, spaces, controls, non-ASCII and all. */
    private static String pair(String name, String value) {
        boolean raw = value.hashCode() % 7 == 0;
        return name + "=" + (raw ? value : URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    private static String joined(List<String> pairs) {
        return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
    }

    private static Arbitrary<List<String>> extraHeaders() {
        return Arbitraries.of("Accept: text/html", "Accept: */*", "Accept: image/png", "Accept: application/json;q=0",
                        "Accept-Charset: koi8-r", "Accept-Encoding: gzip", "Accept-Language: \u00e9", "X-Fuzz: \u0000",
                        "X-Fuzz: " + "v".repeat(4_000), "Expect: 100-continue", "Content-Encoding: gzip",
                        "Cookie: a=" + "c".repeat(500), "Origin: null", "X-Forwarded-For: 1.2.3.4, unknown",
                        "Range: bytes=0-1", "If-None-Match: *", "Upgrade: websocket", "TE: trailers")
                .list().ofMinSize(0).ofMaxSize(3);
    }

    /** POST /events bodies: valid JSON, broken JSON, deeply nested, oversized, invalid UTF-8, NUL, empty. */
    private static Arbitrary<byte[]> body() {
        Arbitrary<String> text = Arbitraries.of("{\"a\":1}", "[]", "1", "\"x\"", "null", "true", "{}", "{\"msg\":\"h\u00e9\u00e9 😀\"}",
                "", " ", "{", "{\"a\":", "{\"a\":1}}", "{\"a\":1} {\"b\":2}", "[1,2,", "nul", "\u0000", "{\"a\":\"\u0000\"}",
                "{'a':1}", "{\"a\":NaN}", "1e999999", "-", "\"\\ud800\"", "{\"a\":1,\"a\":2}");
        Arbitrary<String> nested = Arbitraries.integers().between(10, 5_000)
                .map(depth -> "[".repeat(depth) + "]".repeat(depth));
        Arbitrary<String> nestedObjects = Arbitraries.integers().between(10, 2_000)
                .map(depth -> "{\"a\":".repeat(depth) + "1" + "}".repeat(depth));
        Arbitrary<String> oversized = Arbitraries.integers().between(4_090, 20_000)
                .map(size -> "{\"a\":\"" + "x".repeat(size) + "\"}");
        Arbitrary<String> many = Arbitraries.integers().between(1, 800)
                .map(count -> IntStream.range(0, count).mapToObj(i -> "\"k" + i + "\":" + i).collect(Collectors.joining(",", "{", "}")));
        Arbitrary<byte[]> invalidUtf8 = Arbitraries.of(new byte[] {'"', (byte) 0xC3, 0x28, '"'},
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, (byte) 0xFE, '"', '}'},
                new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'}, new byte[] {(byte) 0xF0, (byte) 0x9F, '"'});
        Arbitrary<byte[]> randomBytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        return Arbitraries.frequencyOf(
                Tuple.of(6, text.map(FuzzInputs::utf8)),
                Tuple.of(2, nested.map(FuzzInputs::utf8)),
                Tuple.of(1, nestedObjects.map(FuzzInputs::utf8)),
                Tuple.of(2, oversized.map(FuzzInputs::utf8)),
                Tuple.of(1, many.map(FuzzInputs::utf8)),
                Tuple.of(2, invalidUtf8),
                Tuple.of(2, randomBytes));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean manyCalls(String n) {
        return validCallsAbove(n, 10);
    }

    /** Whether {@code n} is a number of calls /fanout accepts (at most 1000) and above {@code limit}. */
    private static boolean validCallsAbove(String n, int limit) {
        try {
            int calls = Integer.parseInt(n);
            return calls > limit && calls <= 1000;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean shortValidWait(String ms) {
        try {
            int value = Integer.parseInt(ms);
            return value > 1 && value <= 60_000;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
