package com.example.threading.load.scenario.probe;

/** What sends the probe scenario's loader traffic. */
enum LoaderEngine {
    /** One h2load process per loader (falls back to {@link #JAVA} where h2load is not on PATH). */
    H2LOAD,
    /** Jetty's load generator in the tool's own JVM, one client per loader. */
    JAVA
}
