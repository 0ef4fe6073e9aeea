package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.stream.Event;
import com.example.threading.testing.Await;
import io.dropwizard.jackson.Jackson;
import io.lettuce.core.RedisClient;
import io.lettuce.core.UnblockType;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link StreamReader} on a real Redis, entries written by hand: only watched topics are delivered, each in id order
 * from where its stream was when it was watched; a forgotten topic is not; a killed connection is re-made and nothing
 * published meanwhile is lost.
 */
class StreamReaderTest {

    private static final TopicKeys KEYS = new TopicKeys("reader-test");

    private final List<Event> delivered = new CopyOnWriteArrayList<>();
    private TestRedis redis;
    private RedisClient writerClient;
    private RedisClient readerClient;
    private StatefulRedisConnection<String, String> writer;
    private StreamReader reader;
    private Thread readerThread;

    @BeforeEach
    void startRedisAndReader() {
        redis = TestRedis.startOrSkip();
        writerClient = RedisClient.create(redis.uri());
        readerClient = RedisClient.create(redis.uri());
        writer = writerClient.connect();
        reader = new StreamReader(readerClient, KEYS, 200, new StreamEntries(Jackson.newObjectMapper()),
                new ReaderHooks(delivered::add, new RedisStreamMetrics(new MetricRegistry()), () -> { }),
                clientId -> writer.async().clientUnblock(clientId, UnblockType.TIMEOUT));
        readerThread = new Thread(reader, "stream-reader-test");
        readerThread.setDaemon(true);
        readerThread.start();
        Await.until(reader::connected, Duration.ofSeconds(20), "the reader connected");
    }

    @AfterEach
    void stopAll() throws InterruptedException {
        if (reader != null) {
            reader.stop();
            readerThread.join(5_000);
        }
        if (writer != null) {
            writer.close();
            writerClient.shutdown();
            readerClient.shutdown();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aWatchedTopicIsReadFromItsNewestEntryInOrderAndOthersAreNot() {
        append("a", 1);
        append("a", 2); // before the watch: 1 is the archive's; 2, the newest, is delivered when the topic is placed
        reader.watch("a");
        Await.until(() -> reader.placed("a"), Duration.ofSeconds(10), "topic a placed at its stream's newest entry");

        append("a", 3);
        append("b", 1); // not watched
        append("a", 4);

        Await.until(() -> delivered.size() == 3, Duration.ofSeconds(10), "a's newest and two new events");
        assertThat(delivered).extracting(event -> event.topic() + "/" + event.id()).containsExactly("a/2", "a/3", "a/4");
        assertThat(reader.watched()).isEqualTo(1);
    }

    @Test
    void aForgottenTopicIsNoLongerRead() {
        reader.watch("a");
        Await.until(() -> reader.placed("a"), Duration.ofSeconds(10), "a placed");
        append("a", 1);
        Await.until(() -> delivered.size() == 1, Duration.ofSeconds(10), "a/1");

        reader.forget("a");
        append("a", 2);
        reader.watch("c"); // a new round of XREAD, without a
        Await.until(() -> reader.placed("c"), Duration.ofSeconds(10), "c placed");
        append("c", 1);

        Await.until(() -> delivered.size() == 2, Duration.ofSeconds(10), "c/1");
        assertThat(delivered).extracting(event -> event.topic() + "/" + event.id()).containsExactly("a/1", "c/1");
    }

    @Test
    void aKilledConnectionIsMadeAgainAndNothingPublishedMeanwhileIsLost() {
        reader.watch("a");
        Await.until(() -> reader.placed("a"), Duration.ofSeconds(10), "a placed");
        append("a", 1);
        Await.until(() -> delivered.size() == 1, Duration.ofSeconds(10), "a/1");

        RedisCommands<String, String> admin = writer.sync();
        admin.clientKill(io.lettuce.core.KillArgs.Builder.typeNormal().skipme()); // every connection but this one
        append("a", 2);
        append("a", 3);

        Await.until(() -> delivered.size() == 3, Duration.ofSeconds(20), "a/2 and a/3 after the reconnect");
        assertThat(delivered).extracting(Event::id).containsExactly(1L, 2L, 3L);
    }

    /** What the publish script writes: entry {@code <id>-0} on the topic's stream, and the counter. */
    private void append(String topic, long id) {
        writer.sync().xadd(KEYS.stream(topic), new XAddArgs().id(StreamEntries.entryId(id)),
                Map.of(StreamEntries.TIME, "1000", StreamEntries.DATA, Long.toString(id)));
        writer.sync().set(KEYS.counter(topic), Long.toString(id));
    }
}
