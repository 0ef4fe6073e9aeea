package com.example.threading.events;

import com.example.threading.events.access.OpenAccessFactory;
import com.example.threading.events.access.TopicAccessFactory;
import com.example.threading.events.stream.config.EventStreamFactory;
import com.example.threading.events.stream.config.InProcessStreamFactory;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.DataSizeUnit;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDataSize;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDataSize;
import io.dropwizard.validation.MinDuration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * The {@code events} section of config.yml: ticker, publish limits, history ring, long-poll timeouts and
 * capacity, who may read and publish which topic ({@code events.auth}) and the event stream ({@code events.stream}).
 * The transports added on top have sections of their own ({@code SseConfiguration}, {@code WebSocketConfiguration}).
 */
public final class EventsConfiguration {

    /** Period of the built-in ticker that publishes {@code {"tick":n}}; 0 turns it off. */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.MILLISECONDS)
    private Duration tickPeriod = Duration.seconds(2);

    /** Largest accepted {@code POST /events} body; larger bodies get 413. */
    @NotNull
    @MinDataSize(1)
    @MaxDataSize(value = 1, unit = DataSizeUnit.MEBIBYTES)
    @JsonProperty
    private DataSize maxEventSize = DataSize.kibibytes(4);

    /**
     * Bearer token required by {@code POST /events} under {@code auth.type: open}; absent or blank means only clients
     * on this machine (loopback, not forwarded by a proxy) may publish. Set it from the environment. Another
     * {@code auth} type decides publishing itself and ignores it.
     */
    @JsonProperty
    private String publishToken;

    /**
     * Longest time a {@code POST /events} body may take to arrive once the head is in; beyond it {@code 408} and
     * the connection is closed. The body is read without holding a thread, so this bounds memory and sockets.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration bodyReadTimeout = Duration.seconds(5);

    /**
     * Most {@code POST /events} in progress at once (body being read, event being published, answer being written);
     * beyond it 503 with Retry-After. Bounds what slow publishers can hold (admission control does not count
     * {@code /events}).
     */
    @Min(1)
    @Max(100_000)
    @JsonProperty
    private int maxPublishing = 64;

    /**
     * Most events in one {@code POST /events/batch}; its body may hold this many times {@code maxEventSize} (and a
     * little for each event's topic). A batch counts once against {@code maxPublishing}.
     */
    @Min(1)
    @Max(1000)
    @JsonProperty
    private int maxBatchEvents = 50;

    /** How many recent events each topic's history ring keeps for cursors. */
    @Min(1)
    @Max(100_000)
    @JsonProperty
    private int historySize = 256;

    /**
     * Most topics held at once; a poll or publish that would create one more gets 503 with Retry-After. Each costs its
     * history ring ({@code historySize} slots, filled as events arrive): about the event body plus 400 bytes per
     * event held, so 1,000 full topics of 4 KiB events take about 1.1 GiB of heap.
     */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxTopics = 1_000;

    /** Most topics one poll may ask for ({@code topic=a:3&topic=b:0...}); more get 400. */
    @Min(1)
    @Max(1_000)
    @JsonProperty
    private int maxTopicsPerPoll = 16;

    /**
     * A topic nobody polls, waits on or publishes to for this long is forgotten (its history too): the number of
     * topics does not only grow. The default topic (the ticker's) is kept.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration topicIdleTimeout = Duration.minutes(5);

    /** Wait of a poll that gives no {@code timeout}. */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration defaultTimeout = Duration.seconds(30);

    /** Largest {@code timeout} a poll may ask for; larger values get 400. */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.HOURS)
    @JsonProperty
    private Duration maxTimeout = Duration.seconds(60);

    /** Most requests parked on {@code GET /events} at once; beyond it 503 with Retry-After. */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxParked = 20_000;

    /**
     * Longest wait for the event stream to take a published event; beyond it {@code POST /events} gets 503 (the
     * stream may still publish it). The in-process stream takes it at once.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration publishTimeout = Duration.seconds(5);

    /** Retry-After sent with the 503 of a full hub, and of a publish the stream could not take. */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration retryAfter = Duration.seconds(1);

    /** On stop, how long to wait in all (the spread included) for the answers to parked requests to be written. */
    @NotNull
    @JsonProperty
    private Duration shutdownTimeout = Duration.seconds(10);

    /** On stop, the time over which parked polls are answered, with Retry-After rising to its whole seconds; 0: at once. */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration shutdownSpread = Duration.seconds(3);

    /** Where events are numbered and shared: in this JVM (default) or on a Redis Stream shared by several instances. */
    @Valid
    @NotNull
    @JsonProperty
    private EventStreamFactory stream = new InProcessStreamFactory();

    /**
     * Who may read and publish which topic: {@code open} (default: polls open, publishing under {@code publishToken})
     * or e.g. {@code jwt} (the topics per action listed in a token's claims).
     */
    @Valid
    @NotNull
    @JsonProperty
    private TopicAccessFactory auth = new OpenAccessFactory();

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "defaultTimeout must not exceed maxTimeout")
    public boolean isDefaultTimeoutWithinMax() {
        return defaultTimeout.toMilliseconds() <= maxTimeout.toMilliseconds();
    }

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "shutdownSpread must be below shutdownTimeout (which bounds the whole answering on stop)")
    public boolean isShutdownSpreadWithinTimeout() {
        return shutdownSpread.toMilliseconds() < shutdownTimeout.toMilliseconds();
    }

    /** Takes a duration such as {@code 2s}, or a bare {@code 0} (no unit needed to turn the ticker off). */
    @JsonProperty("tickPeriod")
    void setTickPeriod(String text) {
        tickPeriod = text == null ? null : text.trim().equals("0") ? Duration.seconds(0) : Duration.parse(text);
    }

    Duration getTickPeriod() {
        return tickPeriod;
    }

    DataSize getMaxEventSize() {
        return maxEventSize;
    }

    String getPublishToken() {
        return publishToken;
    }

    int getMaxPublishing() {
        return maxPublishing;
    }

    int getMaxBatchEvents() {
        return maxBatchEvents;
    }

    Duration getBodyReadTimeout() {
        return bodyReadTimeout;
    }

    int getHistorySize() {
        return historySize;
    }

    int getMaxTopics() {
        return maxTopics;
    }

    int getMaxTopicsPerPoll() {
        return maxTopicsPerPoll;
    }

    Duration getTopicIdleTimeout() {
        return topicIdleTimeout;
    }

    Duration getDefaultTimeout() {
        return defaultTimeout;
    }

    Duration getMaxTimeout() {
        return maxTimeout;
    }

    int getMaxParked() {
        return maxParked;
    }

    Duration getPublishTimeout() {
        return publishTimeout;
    }

    Duration getRetryAfter() {
        return retryAfter;
    }

    Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    Duration getShutdownSpread() {
        return shutdownSpread;
    }

    /** The {@code events.auth} section: who may read and publish which topic ({@code type}: open, or e.g. jwt). */
    public TopicAccessFactory getAuth() {
        return auth;
    }

    /** The {@code events.stream} section: which event stream to build ({@code type}: in-process, or e.g. redis). */
    public EventStreamFactory getStream() {
        return stream;
    }
}
