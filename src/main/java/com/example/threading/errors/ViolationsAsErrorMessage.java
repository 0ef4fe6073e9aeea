package com.example.threading.errors;

import io.dropwizard.jersey.errors.ErrorMessage;
import io.dropwizard.jersey.validation.ConstraintMessage;
import io.dropwizard.jersey.validation.JerseyViolationException;
import jakarta.validation.ConstraintViolation;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.Set;
import java.util.stream.Collectors;
import org.glassfish.jersey.server.model.Invocable;

/**
 * Answers a failed bean validation ({@code @Min}, {@code @Max}, {@code @Pattern} ... on a resource's parameters)
 * with the service's one error body, {@code {"code":400,"message":"query param n must be less than or equal to
 * 1000"}}, instead of Dropwizard's {@code {"errors":[…]}}: the violations joined with "; ", the status
 * Dropwizard would have chosen (400 for parameters, 422 for an invalid entity, 500 for an invalid return value).
 * Registered with Jersey as an application provider, it takes precedence over Dropwizard's mapper for the same type.
 */
public final class ViolationsAsErrorMessage implements ExceptionMapper<JerseyViolationException> {

    @Override
    public Response toResponse(JerseyViolationException exception) {
        Set<ConstraintViolation<?>> violations = exception.getConstraintViolations();
        Invocable invocable = exception.getInvocable();
        int status = ConstraintMessage.determineStatus(violations, invocable);
        String message = status >= 500
                ? "the server produced an invalid answer"
                : violations.stream().map(violation -> ConstraintMessage.getMessage(violation, invocable))
                        .sorted().collect(Collectors.joining("; "));
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorMessage(status, message)).build();
    }
}
