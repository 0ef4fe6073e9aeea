package com.example.threading.events.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Serializes the endpoint's bodies with the application's ObjectMapper and writes small synchronous answers.
 */
public final class JsonResponses {

    /** The media type of every answer. */
    public static final String JSON = "application/json";
    /** The {@code Connection} value of an answer after which the connection closes (a request body left unread). */
    public static final String CLOSE = "close";

    private final ObjectMapper mapper;

    public JsonResponses(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The application's mapper, for reading JSON. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** The JSON bytes of {@code value}. */
    public byte[] bytes(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Dropwizard's {@code {"code":..,"message":..}} error body. */
    public byte[] error(int status, String message) {
        return bytes(new ErrorMessage(status, message));
    }

    /** Writes a complete JSON answer on the calling (container) thread. */
    public void write(HttpServletResponse response, int status, byte[] body) throws IOException {
        response.setStatus(status);
        response.setContentType(JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** Writes a JSON error on the calling (container) thread. */
    public void writeError(HttpServletResponse response, int status, String message) throws IOException {
        write(response, status, error(status, message));
    }
}
