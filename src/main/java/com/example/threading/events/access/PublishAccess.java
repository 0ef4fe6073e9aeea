package com.example.threading.events.access;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Who may publish: with a token configured, whoever sends {@code Authorization: Bearer <token>} (the scheme in any
 * case, as HTTP says); without one, only a client on this machine: a loopback remote address and no
 * {@code Forwarded}/{@code X-Forwarded-For} header (a reverse proxy on the same host would otherwise make every
 * remote client look local).
 */
public final class PublishAccess {

    /** What {@link #check} decided. */
    enum Verdict {
        ALLOWED,
        /** A token is configured and the request has none, or the wrong one: 401. */
        BAD_TOKEN,
        /** No token is configured and the client is not on this machine: 403. */
        NOT_LOCAL
    }

    private static final Pattern ADDRESS_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

    private final byte[] expectedToken;

    /** {@code publishToken} null or blank: no token, loopback clients only. */
    public PublishAccess(String publishToken) {
        this.expectedToken = publishToken == null || publishToken.isBlank()
                ? null
                : publishToken.trim().getBytes(StandardCharsets.UTF_8);
    }

    /** True when a bearer token is required. */
    boolean requiresToken() {
        return expectedToken != null;
    }

    /** Decides from the request's {@code Authorization} header, remote address and whether it came through a proxy. */
    Verdict check(String authorization, String remoteAddress, boolean forwarded) {
        if (expectedToken != null) {
            String token = bearerToken(authorization);
            return token != null && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), expectedToken)
                    ? Verdict.ALLOWED
                    : Verdict.BAD_TOKEN;
        }
        return !forwarded && isLoopback(remoteAddress) ? Verdict.ALLOWED : Verdict.NOT_LOCAL;
    }

    /** The token of a {@code Bearer} credential (scheme in any case), or null for none or another scheme. */
    static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        String[] parts = authorization.trim().split("\\s+", 2);
        if (parts.length != 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
            return null;
        }
        return parts[1].trim();
    }

    /**
     * Whether {@code remoteAddress} (an IP literal as the servlet API gives it: {@code 127.0.0.1}, {@code ::1},
     * {@code [::1]}, {@code ::ffff:127.0.0.1}, possibly with a {@code %zone}) is a loopback address. Anything that
     * is not an address literal is not loopback; no name is ever looked up.
     */
    static boolean isLoopback(String remoteAddress) {
        if (remoteAddress == null) {
            return false;
        }
        String literal = remoteAddress.trim();
        if (literal.startsWith("[") && literal.endsWith("]")) {
            literal = literal.substring(1, literal.length() - 1);
        }
        int zone = literal.indexOf('%');
        if (zone >= 0) {
            literal = literal.substring(0, zone);
        }
        // Only dotted IPv4 or IPv6 literals: InetAddress.getByName would resolve a name through DNS.
        if (!ADDRESS_LITERAL.matcher(literal).matches() || (!literal.contains(":") && literal.split("\\.", -1).length != 4)) {
            return false;
        }
        try {
            // An IPv4-mapped IPv6 literal (::ffff:127.0.0.1) comes back as the IPv4 address.
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException notAnAddress) {
            return false;
        }
    }
}
