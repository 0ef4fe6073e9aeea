package com.example.threading.events.access.jwt;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a request carries its bearer token (RFC 6750): the {@code Authorization: Bearer <token>} header, or, for a
 * subscription when {@code queryToken} is on, the query parameter {@code access_token} (for {@code EventSource}, which
 * cannot set headers). Exactly one place, once: both, two headers or two parameters are {@code 400}; none, another
 * scheme only, or a token longer than {@code maxTokenLength} is {@code 401} — the long one without being parsed. The
 * query is read from the request line itself, never from a body (a form-encoded {@code POST} would be read for its
 * parameters).
 */
final class BearerTokens {

    /** The query parameter of RFC 6750 §2.3. */
    static final String QUERY_PARAMETER = "access_token";
    /** The challenge when no credentials came. */
    static final String CHALLENGE = "Bearer realm=\"events\"";
    /** The challenge of a token that came and is not valid. */
    static final String INVALID_TOKEN = CHALLENGE + ", error=\"invalid_token\"";
    /** The challenge of credentials given in more than one place. */
    static final String INVALID_REQUEST = CHALLENGE + ", error=\"invalid_request\"";

    /** What {@link #find} found: a token, or the refusal to answer. */
    record Found(String token, AccessDecision refusal) {
        static Found refused(int status, String message, String challenge) {
            return new Found(null, AccessDecision.refuse(status, message, challenge));
        }
    }

    private final int maxTokenLength;
    private final boolean queryToken;

    /** Tokens up to {@code maxTokenLength} characters; {@code access_token} accepted on subscriptions when {@code queryToken}. */
    BearerTokens(int maxTokenLength, boolean queryToken) {
        this.maxTokenLength = maxTokenLength;
        this.queryToken = queryToken;
    }

    /**
     * The token of a request whose {@code Authorization} headers are {@code authorizations} (none: empty) and whose raw
     * query string is {@code query} (null for none), wanting {@code action}.
     */
    Found find(List<String> authorizations, String query, TopicAccess.Action action) {
        if (authorizations.size() > 1) {
            return Found.refused(400, "send one Authorization header", INVALID_REQUEST);
        }
        List<String> inQuery;
        try {
            inQuery = queryValues(query);
        } catch (IllegalArgumentException badEncoding) {
            return Found.refused(400, QUERY_PARAMETER + " is not properly percent-encoded", INVALID_REQUEST);
        }
        String header = authorizations.isEmpty() ? null : bearer(authorizations.get(0));
        if (!inQuery.isEmpty()) {
            if (action == TopicAccess.Action.PUBLISH) {
                return Found.refused(400, "a publish sends its token in the Authorization header, not in " + QUERY_PARAMETER,
                        INVALID_REQUEST);
            }
            if (!queryToken) {
                return Found.refused(400, QUERY_PARAMETER + " in the query is turned off on this server: send"
                        + " Authorization: Bearer <token>", INVALID_REQUEST);
            }
            if (inQuery.size() > 1 || header != null) {
                return Found.refused(400, "send the token once: in the Authorization header or in " + QUERY_PARAMETER
                        + ", not both", INVALID_REQUEST);
            }
        }
        String token = header != null ? header : inQuery.isEmpty() ? null : inQuery.get(0);
        if (token == null || token.isEmpty()) {
            return Found.refused(401, "a bearer token is required: Authorization: Bearer <token>"
                    + (queryToken && action == TopicAccess.Action.SUBSCRIBE
                            ? " (or ?" + QUERY_PARAMETER + "=<token> on a poll or a stream)" : ""),
                    CHALLENGE);
        }
        if (token.length() > maxTokenLength) {
            return Found.refused(401, "the bearer token is longer than " + maxTokenLength + " characters", INVALID_TOKEN);
        }
        return new Found(token, null);
    }

    /** The token of a {@code Bearer} credential (the scheme in any case), or null for another scheme or none. */
    private static String bearer(String authorization) {
        String[] parts = authorization.trim().split("\\s+", 2);
        if (parts.length != 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
            return null;
        }
        return parts[1].trim();
    }

    /** Every value of {@code access_token} in the raw query, decoded; {@link IllegalArgumentException} for a bad escape. */
    private static List<String> queryValues(String query) {
        List<String> values = new ArrayList<>();
        if (query == null) {
            return values;
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            if (name.equals(QUERY_PARAMETER)) {
                values.add(equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }
}
