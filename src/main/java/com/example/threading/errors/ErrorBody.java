package com.example.threading.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.errors.ErrorMessage;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpStatus;

/**
 * The one error body of the service, {@code {"code":N,"message":"…"}} (Dropwizard's {@link ErrorMessage}), and
 * the rule that turns what Jetty knows about an error into a message fit to show a client: no exception class
 * names, no stack traces, no internal detail of a server fault, and short enough for any error buffer.
 */
public final class ErrorBody {

    /** The media type of every error body. */
    public static final String MEDIA_TYPE = "application/json";
    /** Longest message shown; longer ones (e.g. one quoting a 100 KB URL) are cut, with an ellipsis. */
    public static final int MAX_MESSAGE_LENGTH = 200;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A leading "org.example.SomeException: " (possibly nested), as {@code Throwable.toString()} writes it. */
    private static final Pattern EXCEPTION_PREFIX = Pattern.compile("^(?:[a-zA-Z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error)(?::\\s*|$)");

    private ErrorBody() {
    }

    /** {@code {"code":code,"message":message}} as UTF-8 JSON text. */
    public static String json(int code, String message) {
        try {
            return JSON.writeValueAsString(new ErrorMessage(code, message));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The message to show for {@code code}: the reason phrase for a server fault (5xx) or when nothing better is
     * known; otherwise {@code detail} without exception class names, cut to {@link #MAX_MESSAGE_LENGTH}.
     */
    public static String message(int code, String detail, Throwable cause) {
        String reason = HttpStatus.getMessage(code);
        if (code >= 500 || detail == null || (cause != null && detail.equals(cause.toString()))) {
            return reason;
        }
        String text = detail;
        for (String stripped = strip(text); !stripped.equals(text); stripped = strip(text)) {
            text = stripped;
        }
        text = text.strip();
        if (text.isEmpty()) {
            return reason;
        }
        return text.length() <= MAX_MESSAGE_LENGTH ? text : text.substring(0, MAX_MESSAGE_LENGTH - 1) + "…";
    }

    private static String strip(String text) {
        return EXCEPTION_PREFIX.matcher(text).replaceFirst("");
    }
}
