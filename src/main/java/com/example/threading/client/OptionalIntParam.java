package com.example.threading.client;

import io.dropwizard.jersey.params.AbstractParam;
import jakarta.annotation.Nullable;

/**
 * An integer query parameter that may be absent. Dropwizard's {@code IntParam} (deprecated) cannot be: Jersey
 * 3.1 hands a missing parameter to the converter as {@code null}, and {@code IntParam} answers that with 400
 * "is not a number"; a plain {@code Integer} answers a malformed value with 404. Here a missing parameter holds {@code null} (which {@code @Min}/{@code @Max} accept, and
 * {@code @DefaultValue} replaces) and a malformed one gets Dropwizard's 400 JSON.
 */
public final class OptionalIntParam extends AbstractParam<Integer> {

    /** Called by Dropwizard's param converter with the raw value and the parameter's name. */
    public OptionalIntParam(@Nullable String input, String parameterName) {
        super(input, parameterName);
    }

    @Override
    protected String errorMessage(Exception e) {
        return "%s is not a number.";
    }

    @Override
    protected Integer parse(@Nullable String input) {
        return input == null ? null : Integer.valueOf(input);
    }
}
