/**
 * The long-poll's event stream on Redis Streams, for several instances behind a load balancer
 * ({@code events.stream.type: redis}): every instance appends to one stream and reads all of it, so an event
 * published on any instance reaches the parked polls of every instance, numbered once for the whole cluster, and
 * any instance answers any cursor.
 *
 * <p>Threads:
 * <ul>
 *   <li>The publishing thread (a Jetty worker of {@code POST /events}, or the ticker) calls
 *       {@link com.example.threading.events.stream.redis.RedisEventStream#publish}: one {@code EVAL} of
 *       {@code StreamScripts.PUBLISH} (INCR the counter, XADD {@code <n>-0} with the stream's epoch) on a shared lettuce connection; it
 *       does not wait: the stage completes on a lettuce I/O thread ({@code lettuce-nioEventLoop-*}).</li>
 *   <li>One reader thread per instance ({@code events-redis-reader}), on its own connection, runs
 *       {@code StreamReader}: {@code XREAD BLOCK} from its last id, handing each entry to the hub in id order
 *       (the hub then answers its parked polls in one batch per event, exactly as in-process); on a failure it
 *       reconnects with backoff and reads on from its last id. It also (re)makes the publish connection when
 *       there is none yet (Redis down at start-up).</li>
 *   <li>The health check ({@code events-stream}) and the lag gauge read volatile state from any thread.</li>
 * </ul>
 *
 * <p>On a Redis Cluster ({@code events.stream.redis.cluster: true},
 * {@link com.example.threading.events.stream.redis.RedisClusterEventStream}) the keys and scripts are the same, the
 * publish
 * script also announces each event on the topic's shard channel ({@code SPUBLISH}), and the one reader thread
 * ({@code events-redis-cluster-reader}, {@code ShardedTopicReader}) subscribes ({@code SSUBSCRIBE}) to the channels of
 * the topics the hub watches, delivers the announcements in id order and reads the streams to fill any gap.
 *
 * <p>Entry class: {@link com.example.threading.events.stream.redis.RedisEventStreamBundle}, a Dropwizard bundle added
 * beside {@code EventsBundle} ({@code bootstrap.addBundle(new RedisEventStreamBundle())}): it makes
 * {@code events.stream.type: redis} known ({@link com.example.threading.events.stream.redis.RedisStreamFactory}), and
 * the
 * events bundle then builds the {@link com.example.threading.events.stream.redis.RedisEventStream}; configuration
 * {@link com.example.threading.events.stream.redis.RedisStreamConfiguration} (section {@code events.stream.redis});
 * metrics {@code events.redis.*}. The guide (running two instances, guarantees, faults) is
 * {@code docs/longpoll-redis.md}; what differs on a Redis Cluster is {@code docs/longpoll-redis-cluster.md}.
 *
 * <p>To copy: this package with the events wing (it builds on the stream SPI only: {@code events.stream}'s
 * {@code EventSink}, {@code EventSource}, {@code EventArchive} and {@code TickGate}, and {@code events.stream.config}'s
 * {@code EventStreamFactory}; nothing there refers to it); it needs lettuce-core and nothing from the other patterns.
 */
package com.example.threading.events.stream.redis;
