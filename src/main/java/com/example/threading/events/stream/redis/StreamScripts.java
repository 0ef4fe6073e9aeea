package com.example.threading.events.stream.redis;

/**
 * The Lua scripts the stream runs inside Redis. A script runs atomically (no other command of any client runs in
 * between), which is what makes the ids whole numbers that increase by exactly one across every instance.
 */
final class StreamScripts {

    /** The body both publish scripts share: repair the counter, number the event, name the stream's epoch, append it. */
    private static final String NUMBER_AND_APPEND = """
            local counter = tonumber(redis.call('GET', KEYS[2]) or '0')
            local floor = tonumber(ARGV[3])
            local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
            if #top > 0 then
              local topId = tonumber(string.match(top[1][1], '^(%d+)'))
              if topId > floor then floor = topId end
            end
            if counter < floor then redis.call('SET', KEYS[2], floor) end
            local id = redis.call('INCR', KEYS[2])
            local now = redis.call('TIME')
            local ms = now[1] .. string.format('%03d', math.floor(tonumber(now[2]) / 1000))
            local epoch = redis.call('GET', KEYS[3])
            if not epoch or redis.call('EXISTS', KEYS[1]) == 0 then
              epoch = now[1] .. string.format('%06d', tonumber(now[2]))
              redis.call('SET', KEYS[3], epoch)
            end
            redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], id .. '-0', 'time', ms, 'epoch', epoch, 'data', ARGV[1])
            """;

    /**
     * Publish: KEYS[1] the stream, KEYS[2] the id counter, KEYS[3] the stream's epoch; ARGV[1] the event's JSON, ARGV[2]
     * the approximate MAXLEN, ARGV[3] the newest id this instance has read (a floor). Returns {id, epoch milliseconds,
     * epoch}.
     *
     * <p>The counter is first raised to the floor and to the stream's newest entry if it is behind either: that
     * only happens when Redis lost the counter (a restart without persistence, a deleted key) while an instance or
     * the stream still knew a higher id; without the repair the XADD below would fail (an id at or below the
     * stream's top) or reuse ids clients already hold. Then INCR numbers the event and XADD appends it with
     * {@code <n>-0} as its entry id, trimming the stream to about MAXLEN entries. The time is Redis's clock, so
     * events of all instances carry one clock.
     *
     * <p>The epoch names the stream's history: made (from Redis's clock, in microseconds) when the first event creates
     * the stream, and again when the stream is gone (Redis lost it, or someone deleted it) or has no epoch yet. Every
     * entry carries it, so readers see a recreated stream in its events; a cursor of another epoch is answered missed.
     */
    static final String PUBLISH = NUMBER_AND_APPEND + """
            return {id, ms, epoch}
            """;

    /**
     * Publish on a Redis Cluster: {@link #PUBLISH}, then announces the event on the topic's shard channel, named like its
     * stream ({@code SPUBLISH <key>:{T} <id>:<ms>:<epoch>:<json>}, Redis 7): a channel that shares the stream's hash tag
     * lives in its slot, so the script may publish on it, and the announcement leaves the master in the script's order.
     */
    static final String PUBLISH_AND_ANNOUNCE = NUMBER_AND_APPEND + """
            redis.call('SPUBLISH', KEYS[1], id .. ':' .. ms .. ':' .. epoch .. ':' .. ARGV[1])
            return {id, ms, epoch}
            """;

    /**
     * History: KEYS[1] the stream, KEYS[2] the id counter, KEYS[3] the stream's epoch; ARGV[1] the first entry id wanted
     * ({@code <cursor+1>-0}), ARGV[2] the most entries. Returns {newest id numbered, entries, epoch or ''}, read at one
     * instant.
     */
    static final String HISTORY = """
            local newest = tonumber(redis.call('GET', KEYS[2]) or '0')
            local entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
            return {newest, entries, redis.call('GET', KEYS[3]) or ''}
            """;

    /**
     * Place: KEYS[1] the stream, KEYS[2] the id counter. Returns {the counter, the stream's newest entry id or ''}, read
     * at one instant: read one after the other, a publish in between could number an event the reader then skips.
     */
    static final String PLACE = """
            local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
            local counter = tonumber(redis.call('GET', KEYS[2]) or '0')
            if #newest > 0 then return {counter, newest[1][1]} end
            return {counter, ''}
            """;

    /**
     * Ticker lease: KEYS[1] the lease key; ARGV[1] this instance's id, ARGV[2] the lease in milliseconds. Renews the
     * lease when this instance holds it, takes it when nobody does ({@code SET PX}); returns 1 when this instance holds
     * it afterwards, 0 when another does.
     */
    static final String TICKER_LEASE = """
            local holder = redis.call('GET', KEYS[1])
            if holder == ARGV[1] then
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              return 1
            end
            if not holder then
              redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
              return 1
            end
            return 0
            """;

    /** Ticker lease release: KEYS[1] the lease key, ARGV[1] this instance's id; deletes the lease only if it holds it. */
    static final String TICKER_RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """;

    private StreamScripts() {
    }
}
