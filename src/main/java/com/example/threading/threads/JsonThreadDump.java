package com.example.threading.threads;

import java.io.IOException;
import java.nio.file.Path;

/** Writes the JVM's threads, virtual ones included, as one JSON document (JDK 21+). */
interface JsonThreadDump {

    /** Writes the dump to {@code file}, an absolute path that must not exist yet. */
    void writeTo(Path file) throws IOException;
}
