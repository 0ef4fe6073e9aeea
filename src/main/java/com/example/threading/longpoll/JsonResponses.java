package com.example.threading.longpoll;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Serializes the endpoint's bodies with the application's ObjectMapper and writes small synchronous answers.
 */
final class JsonResponses {

    static final String JSON = "application/json";

    private final ObjectMapper mapper;

    JsonResponses(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The application's mapper, for reading JSON. */
    ObjectMapper mapper() {
        return mapper;
    }

    /** The JSON bytes of {@code value}. */
    byte[] bytes(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Dropwizard's {@code {"code":..,"message":..}} error body. */
    byte[] error(int status, String message) {
        return bytes(new ErrorMessage(status, message));
    }

    /** Writes a complete JSON answer on the calling (container) thread. */
    void write(HttpServletResponse response, int status, byte[] body) throws IOException {
        response.setStatus(status);
        response.setContentType(JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /**
     * Answers {@code 405} for a method {@code path} does not take, with {@code Allow: allowed} and
     * {@code Connection: close}: a body the request may carry is never read, so the connection is not reused.
     */
    void refuseMethod(HttpServletRequest request, HttpServletResponse response, String allowed, String path) throws IOException {
        response.setHeader("Allow", allowed);
        response.setHeader("Connection", EventPublishing.CLOSE);
        writeError(response, 405, request.getMethod() + " is not supported on " + path);
    }

    /** Writes a JSON error on the calling (container) thread. */
    void writeError(HttpServletResponse response, int status, String message) throws IOException {
        write(response, status, error(status, message));
    }
}
