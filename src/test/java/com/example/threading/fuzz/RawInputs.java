package com.example.threading.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Malformed HTTP/1.1 for the fuzz suite: bad request lines, bad versions and line endings, header floods and huge
 * headers, broken header syntax, conflicting or broken body framing, invalid UTF-8 and NUL bytes, random bytes,
 * a TLS hello, the HTTP/2 preface followed by garbage; sent fast or slowly, in pieces.
 *
 * <p>Thread-safety: stateless; jqwik calls it from the test thread.
 */
final class RawInputs {

    private static final String TARGET = "/work/cached?ms=1";

    private RawInputs() {
    }

    /** One malformed input, to either port, in 1..6 pieces 0..150 ms apart. */
    static Arbitrary<RawInput> inputs() {
        Arbitrary<Tuple.Tuple2<String, byte[]>> kinds = Arbitraries.frequencyOf(
                Tuple.of(4, requestLines()),
                Tuple.of(3, headerFloods()),
                Tuple.of(3, headerSyntax()),
                Tuple.of(3, framing()),
                Tuple.of(2, garbage()));
        return Combinators.combine(kinds, Arbitraries.of(false, false, false, true), Arbitraries.integers().between(1, 6),
                        Arbitraries.of(0, 0, 10, 50, 150))
                .as((kind, admin, pieces, pause) -> new RawInput(kind.get1(), admin, split(kind.get2(), pieces), pause));
    }

    private static Arbitrary<Tuple.Tuple2<String, byte[]>> requestLines() {
        Arbitrary<String> method = Arbitraries.of("GET", "GET", "get", "", "G T", "GET\u0000", "GE\u00c9T", "X".repeat(300), "PRI", "CONNECT");
        Arbitrary<String> target = Arbitraries.of(TARGET, TARGET, "", "/", "work", "/%", "//", "/\u00ff\u00fe", "/a b", "*",
                "http://127.0.0.1:99999/", "http://[::1/", "/work/cached?ms=\u0000", "/" + "%41".repeat(3_000), "\t/");
        Arbitrary<String> version = Arbitraries.of("HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/1.2", "HTTP/2.0", "HTTP/0.9",
                "http/1.1", "HTTP/1.1 extra", "HTTP/11", "", "HTTP/1.1\u0000", "HTTP/", "HTTPS/1.1");
        Arbitrary<String> eol = Arbitraries.of("\r\n", "\r\n", "\n", "\r", "\r\r\n");
        return Combinators.combine(method, target, version, eol)
                .as((m, t, v, end) -> Tuple.of("request line", latin1(m + " " + t + " " + v + end + "Host: x" + end + end)));
    }

    private static Arbitrary<Tuple.Tuple2<String, byte[]>> headerFloods() {
        Arbitrary<byte[]> many = Arbitraries.integers().between(50, 3_000).map(count -> {
            StringBuilder head = new StringBuilder("GET " + TARGET + " HTTP/1.1\r\nHost: x\r\n");
            for (int i = 0; i < count; i++) {
                head.append("X-Flood-").append(i).append(": ").append(i).append("\r\n");
            }
            return latin1(head.append("\r\n").toString());
        });
        Arbitrary<byte[]> huge = Arbitraries.integers().between(1_000, 100_000)
                .map(size -> latin1("GET " + TARGET + " HTTP/1.1\r\nHost: x\r\nX-Huge: " + "h".repeat(size) + "\r\n\r\n"));
        Arbitrary<byte[]> cookies = Arbitraries.integers().between(10, 500)
                .map(count -> latin1("GET " + TARGET + " HTTP/1.1\r\nHost: x\r\n" + "Cookie: c=1\r\n".repeat(count) + "\r\n"));
        return Arbitraries.oneOf(many.map(b -> Tuple.of("many headers", b)), huge.map(b -> Tuple.of("huge header", b)),
                cookies.map(b -> Tuple.of("repeated headers", b)));
    }

    private static Arbitrary<Tuple.Tuple2<String, byte[]>> headerSyntax() {
        return Arbitraries.of("Bad Header: x", "NoColon", ": x", "X: a\r\n  folded", "X\u00e9: y", "X: \u0000",
                        "X-\u0000: y", "Host: a b", "Host: [::1", "Host: x:99999", "Host: x\r\nHost: y", "X:\u00ff\u00fe",
                        "Content-Type: " + "a/b;".repeat(2_000), "Accept: " + "*/*;q=0.1,".repeat(500), " X: leading space",
                        "X : space before colon", "Transfer-Encoding: identity", "Content-Length: 1, 1")
                .map(line -> Tuple.of("header syntax", latin1("GET " + TARGET + " HTTP/1.1\r\nHost: x\r\n" + line + "\r\n\r\n")));
    }

    private static Arbitrary<Tuple.Tuple2<String, byte[]>> framing() {
        String post = "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer "
                + FuzzInputs.TOKEN + "\r\n";
        return Arbitraries.of(
                        post + "Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n",
                        post + "Transfer-Encoding: chunked, chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n",
                        post + "Transfer-Encoding: gzip\r\n\r\n{\"a\":1}",
                        post + "Transfer-Encoding: gzip, chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n",
                        post + "Content-Length: -1\r\n\r\n{}",
                        post + "Content-Length: abc\r\n\r\n{}",
                        post + "Content-Length: 99999999999999999999\r\n\r\n{}",
                        post + "Content-Length: 100000000\r\n\r\n{}",
                        post + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n",
                        post + "Transfer-Encoding: chunked\r\n\r\n7;" + "e".repeat(5_000) + "\r\n{\"a\":1}\r\n0\r\n\r\n",
                        post + "Transfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n",
                        post + "Transfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n" + "T: x\r\n".repeat(2_000) + "\r\n",
                        post + "Transfer-Encoding: chunked\r\n\r\n-7\r\n{\"a\":1}\r\n0\r\n\r\n",
                        post + "Content-Length: 7\r\nContent-Encoding: gzip\r\n\r\n{\"a\":1}",
                        post + "Expect: 100-continue\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
                        post + "Expect: 999-nonsense\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
                        "GET " + TARGET + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
                        "GET " + TARGET + " HTTP/1.0\r\n\r\n",
                        "GET " + TARGET + " HTTP/1.1\r\nHost: x\r\n\r\nGET " + TARGET + " HTTP/1.1\r\nHost: x\r\n\r\nBROKEN\r\n\r\n")
                .map(text -> Tuple.of("body framing", latin1(text)));
    }

    private static Arbitrary<Tuple.Tuple2<String, byte[]>> garbage() {
        byte[] tlsHello = {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, (byte) 0xa1, 0x03, 0x03};
        byte[] preface = latin1("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(2_000);
        Arbitrary<byte[]> afterPreface = random.map(bytes -> concat(preface, bytes));
        Arbitrary<byte[]> utf8Invalid = Arbitraries.of(new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xFF},
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80})
                .map(bad -> concat(concat(latin1("GET /work/cached?ms="), bad), latin1(" HTTP/1.1\r\nHost: x\r\n\r\n")));
        return Arbitraries.oneOf(random.map(b -> Tuple.of("random bytes", b)), Arbitraries.just(Tuple.of("TLS hello", tlsHello)),
                afterPreface.map(b -> Tuple.of("h2 preface + garbage", b)), utf8Invalid.map(b -> Tuple.of("invalid UTF-8", b)));
    }

    private static List<byte[]> split(byte[] bytes, int pieces) {
        List<byte[]> parts = new ArrayList<>();
        int size = Math.max(1, (bytes.length + pieces - 1) / pieces);
        for (int at = 0; at < bytes.length; at += size) {
            byte[] part = new byte[Math.min(size, bytes.length - at)];
            System.arraycopy(bytes, at, part, 0, part.length);
            parts.add(part);
        }
        return parts;
    }

    private static byte[] latin1(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(first);
        out.writeBytes(second);
        return out.toByteArray();
    }
}
