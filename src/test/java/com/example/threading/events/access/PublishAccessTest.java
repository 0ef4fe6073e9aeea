package com.example.threading.events.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.access.PublishAccess.Verdict;
import org.junit.jupiter.api.Test;

/** Who may publish on {@code POST /events}: the remote-address rule without a token, the bearer rule with one. */
class PublishAccessTest {

    private final PublishAccess open = new PublishAccess("  ");
    private final PublishAccess withToken = new PublishAccess("s3cret");

    @Test
    void loopbackAddressesInEveryFormTheServletApiGives() {
        for (String local : new String[] {"127.0.0.1", "127.8.9.10", "::1", "0:0:0:0:0:0:0:1", "[::1]", "::1%lo",
                "::ffff:127.0.0.1", "0:0:0:0:0:ffff:7f00:1", " 127.0.0.1 "}) {
            assertThat(PublishAccess.isLoopback(local)).as(local).isTrue();
        }
    }

    @Test
    void everythingElseIsNotLoopback() {
        for (String remote : new String[] {"10.0.0.7", "192.168.1.1", "0.0.0.0", "::", "fe80::1", "2001:db8::1",
                "::ffff:10.0.0.1", "::127.0.0.1", "128.0.0.1", "localhost", "127.0.0.1.evil.example", "2130706433",
                "127.1", "", "not an address", null}) {
            assertThat(PublishAccess.isLoopback(remote)).as(String.valueOf(remote)).isFalse();
        }
    }

    @Test
    void withoutATokenOnlyLocalUnforwardedClientsMayPublish() {
        assertThat(open.requiresToken()).isFalse();
        assertThat(open.check(null, "127.0.0.1", false)).isEqualTo(Verdict.ALLOWED);
        assertThat(open.check(null, "::1", false)).isEqualTo(Verdict.ALLOWED);
        assertThat(open.check(null, "::ffff:127.0.0.1", false)).isEqualTo(Verdict.ALLOWED);
        assertThat(open.check(null, "10.1.2.3", false)).isEqualTo(Verdict.NOT_LOCAL);
        assertThat(open.check("Bearer anything", "10.1.2.3", false)).isEqualTo(Verdict.NOT_LOCAL);
        assertThat(open.check(null, "127.0.0.1", true)).as("through a proxy on this host").isEqualTo(Verdict.NOT_LOCAL);
    }

    @Test
    void withATokenAnyAddressWithTheTokenMayPublishInAnySchemeCase() {
        assertThat(withToken.requiresToken()).isTrue();
        for (String scheme : new String[] {"Bearer", "bearer", "BEARER", "bEaReR"}) {
            assertThat(withToken.check(scheme + " s3cret", "203.0.113.9", true)).as(scheme).isEqualTo(Verdict.ALLOWED);
        }
        assertThat(withToken.check("  Bearer \t s3cret  ", "10.0.0.1", false)).isEqualTo(Verdict.ALLOWED);
        for (String bad : new String[] {"Bearer s3cre", "Bearer s3cretx", "Basic s3cret", "s3cret", "Bearer", "Bearers3cret", ""}) {
            assertThat(withToken.check(bad, "127.0.0.1", false)).as(bad).isEqualTo(Verdict.BAD_TOKEN);
        }
        assertThat(withToken.check(null, "127.0.0.1", false)).as("loopback needs the token too once one is set")
                .isEqualTo(Verdict.BAD_TOKEN);
    }

    @Test
    void bearerTokenParsing() {
        assertThat(PublishAccess.bearerToken("Bearer abc")).isEqualTo("abc");
        assertThat(PublishAccess.bearerToken("bearer   abc ")).isEqualTo("abc");
        assertThat(PublishAccess.bearerToken("Basic abc")).isNull();
        assertThat(PublishAccess.bearerToken("Bearer")).isNull();
        assertThat(PublishAccess.bearerToken(null)).isNull();
    }
}
