package com.example.threading.minimal;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lets a GET through only with {@code Authorization: Bearer <JWT>}, signed HS256 with {@code secret} (nimbus verifies:
 * no other algorithm, {@code exp} required), whose {@code events.subscribe} claim lists every {@code topic} asked
 * (exact, or {@code prefix*}): else 401 or 403 JSON, before the request reaches the poll; one topic refused refuses all.
 * Thread-safety: the processor is configured in the constructor and only read afterwards.
 */
public final class MinimalTopicAuth extends HttpFilter {
    private final DefaultJWTProcessor<SecurityContext> jwt = new DefaultJWTProcessor<>();

    public MinimalTopicAuth(byte[] secret) {
        jwt.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableSecret<>(secret)));
        jwt.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(null, Set.of("exp")));
    }

    /** Guards {@code path}, e.g. the long-poll's. */
    public void protect(Environment environment, String path) {
        environment.servlets().addFilter("minimal-topic-auth", this).addMappingForUrlPatterns(null, false, path);
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String header = request.getHeader("Authorization");
        Object subscribe;
        try {
            Map<String, Object> events = jwt.process(header == null ? "" : header.replaceFirst("^(?i)Bearer +", ""), null)
                    .getJSONObjectClaim("events");
            subscribe = events == null ? null : events.get("subscribe");
        } catch (Exception notValid) { // missing, forged, expired, alg none, garbage: a 401, never a 500
            response.setHeader("WWW-Authenticate", "Bearer realm=\"events\"");
            refuse(response, 401, "a valid bearer token is required");
            return;
        }
        List<?> allowed = subscribe instanceof List<?> list ? list : List.of();
        String[] topics = request.getParameterValues("topic");
        for (String topic : topics == null ? new String[] {"default"} : topics) {
            String name = topic.split(":", 2)[0]; // topic=T:cursor
            if (allowed.stream().map(String::valueOf).noneMatch(p -> p.endsWith("*")
                    ? name.startsWith(p.substring(0, p.length() - 1)) : p.equals(name))) {
                refuse(response, 403, "the token does not allow every topic asked");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private static void refuse(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getWriter().write("{\"code\":" + status + ",\"message\":\"" + message + "\"}");
    }
}
