/**
 * Who may read and publish which topic, from a signed JWT ({@code events.auth.type: jwt}): the long-poll's
 * {@code TopicAccess} seam implemented with Dropwizard's auth module ({@code Authenticator}, {@code Authorizer}) and
 * nimbus-jose-jwt.
 *
 * <p>How a request passes: {@link com.example.threading.events.access.jwt.BearerTokens} finds the token
 * ({@code Authorization: Bearer}, or {@code ?access_token=} on a poll or a stream when allowed; once, not too long);
 * {@link com.example.threading.events.access.jwt.JwtAuthenticator} verifies it (the one configured algorithm and key,
 * {@code exp}, {@code nbf}, {@code iss}, {@code aud}) into a
 * {@link com.example.threading.events.access.jwt.TopicPrincipal}
 * carrying the token's {@code events} claim; {@link com.example.threading.events.access.jwt.ClaimsAuthorizer} answers
 * the
 * role {@code subscribe:<topic>} or {@code publish:<topic>} for each topic asked
 * ({@link com.example.threading.events.access.jwt.TopicPatterns}: exact names and {@code prefix*}).
 * {@link com.example.threading.events.access.jwt.AuthenticatedTopicAccess} ties the three together and is where another
 * {@code Authenticator<String, P>} plugs in.
 *
 * <p>Threads: none of its own. Every call runs on the Jetty request thread of the poll, stream or publish, before the
 * request reaches the hub; verifying a token is CPU only, no I/O (a JWKS is read once, at start): about 7 us for
 * HS256, 50 us for RS256 and 0.4 ms (JDK 25) to 1.1 ms (JDK 17) for ES256 per request on this repository's build
 * machine ({@code docs/longpoll-auth.md}, "Cost").
 *
 * <p>Entry class: {@link com.example.threading.events.access.jwt.JwtAccessBundle}, added beside
 * {@code EventsBundle} ({@code bootstrap.addBundle(new JwtAccessBundle())}): it makes {@code events.auth.type: jwt}
 * known ({@link com.example.threading.events.access.jwt.JwtAccessFactory}, settings
 * {@link com.example.threading.events.access.jwt.JwtSettings} under {@code events.auth.jwt}); the events bundle builds
 * the
 * policy and counts refusals in {@code events.auth.*}. The guide is {@code docs/longpoll-auth.md}.
 *
 * <p>To copy: this package with the events wing (it builds on {@code events.access}'s {@code TopicAccess},
 * {@code TopicGrant}, {@code AccessDecision} and {@code TopicAccessFactory}, and {@code events.stream}'s topic names;
 * nothing there refers to it); it needs dropwizard-auth and nimbus-jose-jwt and nothing from the other patterns.
 */
package com.example.threading.events.access.jwt;
