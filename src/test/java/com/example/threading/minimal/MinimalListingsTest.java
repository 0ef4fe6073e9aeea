package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each pattern page opens with its minimal version: within its first 60 lines, between {@code <!-- minimal:NAME -->}
 * and {@code <!-- /minimal -->}, a {@code java} block that is exactly the listing's file from its class comment
 * ({@code /**} at the start of a line) to its end, without the package line and imports; that block is 20 to 60
 * lines, and the page names the test that runs the listing.
 */
class MinimalListingsTest {

    private static final Path DOCS = Path.of("docs");
    private static final Path LISTINGS = Path.of("src/test/java/com/example/threading/minimal");
    /** Listings that use JDK 25's preview APIs, compiled apart. */
    private static final Path PREVIEW_LISTINGS = Path.of("src/test/java25-preview/com/example/threading/minimal");
    private static final Pattern BLOCK = Pattern.compile(
            "<!-- minimal:([a-z-]+) -->\n```java\n(.*?)```\n<!-- /minimal -->", Pattern.DOTALL);

    static Stream<Arguments> pages() {
        return Stream.of(
                Arguments.of("work.md", "work", "MinimalWork"),
                Arguments.of("client.md", "client", "MinimalFanout"),
                Arguments.of("longpoll.md", "longpoll", "MinimalLongPoll"),
                Arguments.of("sse.md", "sse", "MinimalSse"),
                Arguments.of("websocket.md", "websocket", "MinimalWebSocket"),
                Arguments.of("longpoll-redis.md", "longpoll-redis", "MinimalRedisEvents"),
                Arguments.of("longpoll-auth.md", "longpoll-auth", "MinimalTopicAuth"),
                Arguments.of("jetty.md", "jetty", "MinimalExecutionStrategy"),
                Arguments.of("virtual-threads.md", "virtual-threads", "MinimalVirtualThreads"),
                Arguments.of("admission.md", "admission", "MinimalAdmission"),
                Arguments.of("errors.md", "errors", "MinimalJsonErrors"),
                Arguments.of("context.md", "context", "MinimalContext"),
                Arguments.of("newer-jdks.md", "newer-jdks", "MinimalStructuredFanout"),
                Arguments.of("scoped-values.md", "scoped-values", "MinimalScopedContext"));
    }

    @ParameterizedTest(name = "{0} quotes {2}")
    @MethodSource("pages")
    void thePageOpensWithTheListingAsItIs(String page, String name, String listing) throws IOException {
        String text = Files.readString(DOCS.resolve(page));
        Matcher block = BLOCK.matcher(text);

        assertThat(block.find()).as("%s has a <!-- minimal:... --> java block", page).isTrue();
        assertThat(block.group(1)).isEqualTo(name);
        int openingLine = lineOf(text, block.start());
        assertThat(openingLine).as("line of <!-- minimal:%s --> in %s", name, page).isLessThanOrEqualTo(60);
        assertThat(block.group(2)).as("the block in %s is %s.java from its class comment", page, listing)
                .isEqualTo(fromClassComment(Files.readString(listingFile(listing))));
        assertThat(block.group(2).lines().count()).as("lines quoted").isBetween(20L, 60L);
        assertThat(text).as("%s names the test that runs the listing", page).contains(listing + "Test");
        assertThat(block.find()).as("one minimal block in %s", page).isFalse();
    }

    private static Path listingFile(String listing) {
        Path file = LISTINGS.resolve(listing + ".java");
        return Files.exists(file) ? file : PREVIEW_LISTINGS.resolve(listing + ".java");
    }

    /** The file from the first line that starts with its class comment. */
    private static String fromClassComment(String file) {
        List<String> lines = file.lines().toList();
        int start = 0;
        while (!lines.get(start).startsWith("/**")) {
            start++;
        }
        return String.join("\n", lines.subList(start, lines.size())) + "\n";
    }

    private static int lineOf(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }
}
