package com.example.threading.threads;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * {@code GET /threads.json}: the JVM's JSON thread dump, virtual threads and their owners included, written to a file
 * of its own and sent from there. One dump at a time: a second request while one is written gets a {@code 503}
 * with {@code Retry-After}. Below JDK 21, a {@code 501} saying what it needs.
 *
 * <p>Thread-safety: requests arrive on the admin port's threads, any number at once; the semaphore lets one of them
 * write a dump, and each dump has a temporary folder of its own, deleted before the semaphore is released
 * ({@code JsonThreadDumpServletTest}).
 */
final class JsonThreadDumpServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient Optional<JsonThreadDump> dump;
    private final transient String missing;
    private final transient ObjectMapper mapper;
    private final transient Timer written;
    private final transient Meter refused;
    private final transient Semaphore writing = new Semaphore(1);

    /** Sends {@code dump}'s output, or {@code missing} (why there is none) when it is empty. */
    JsonThreadDumpServlet(Optional<JsonThreadDump> dump, String missing, ObjectMapper mapper, Timer written, Meter refused) {
        this.dump = dump;
        this.missing = missing;
        this.mapper = mapper;
        this.written = written;
        this.refused = refused;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (dump.isEmpty()) {
            error(response, HttpServletResponse.SC_NOT_IMPLEMENTED, missing);
            return;
        }
        if (!writing.tryAcquire()) {
            refused.mark();
            response.setHeader("Retry-After", "1");
            error(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "a thread dump is being written; one at a time");
            return;
        }
        try {
            Path folder = Files.createTempDirectory("threads-json");
            Path file = folder.resolve("threads.json");
            try {
                try (Timer.Context ignored = written.time()) {
                    dump.get().writeTo(file);
                }
                response.setContentType("application/json");
                response.setHeader("Cache-Control", "no-store");
                response.setContentLengthLong(Files.size(file));
                Files.copy(file, response.getOutputStream());
            } finally {
                Files.deleteIfExists(file);
                Files.delete(folder);
            }
        } finally {
            writing.release();
        }
    }

    private void error(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        mapper.writeValue(response.getOutputStream(), Map.of("code", status, "message", message));
    }
}
