package com.example.threading.load.scenario.topology;

/** The faults the topology scenario injects on the hosts behind the balancer, one phase each, in this order. */
public enum Fault {
    /** SIGKILL one instance; start it again once it is out of rotation (and --hold has passed). */
    KILL("kill", "SIGKILL an instance, then start it again"),
    /** A blackhole route to Redis on one instance's host; removed once it is out of rotation (and --hold has passed). */
    REDIS_CUT("redis-cut", "cut an instance off from Redis (blackhole route), then reconnect it"),
    /** One instance's link delayed and lossy (tc netem; loss only with nftables where the kernel has no netem) for --hold. */
    LINK("link", "delay and drop packets on an instance's link"),
    /** Redis stopped (SIGTERM: it writes its AOF) and started again on the same data once the instances are out. */
    REDIS_RESTART("redis-restart", "restart Redis (AOF on)");

    private final String option;
    private final String description;

    Fault(String option, String description) {
        this.option = option;
        this.description = description;
    }

    /** The name on the command line, e.g. "redis-cut". */
    public String option() {
        return option;
    }

    /** What it does, for the report. */
    public String description() {
        return description;
    }

    /** The fault named {@code option} on the command line. */
    public static Fault of(String option) {
        for (Fault fault : values()) {
            if (fault.option.equalsIgnoreCase(option) || fault.name().equalsIgnoreCase(option)) {
                return fault;
            }
        }
        throw new IllegalArgumentException("no fault " + option + "; known: kill, redis-cut, link, redis-restart");
    }
}
