package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import org.eclipse.jetty.io.EofException;
import org.junit.jupiter.api.Test;

/** Which exceptions say "the client had gone", without a server. */
class ClientGoneTest {

    @Test
    void jettyEofAnywhereInTheCausesIsADisconnect() {
        EofException eof = new EofException("reset");
        assertThat(ClientGone.cause(new UncheckedIOException(eof))).isSameAs(eof);
        assertThat(ClientGone.cause(eof)).isSameAs(eof);
    }

    @Test
    void resetAndBrokenPipeAreDisconnects() {
        assertThat(ClientGone.cause(new IOException("Connection reset by peer"))).isNotNull();
        assertThat(ClientGone.cause(new RuntimeException(new IOException("Broken pipe")))).isNotNull();
    }

    @Test
    void aClosedChannelIsADisconnect() {
        // An HTTP/2 connection the client closed without a GOAWAY: Jetty fails its open streams with this.
        ClosedChannelException closed = new ClosedChannelException();
        assertThat(ClientGone.cause(new UncheckedIOException(new IOException(closed)))).isSameAs(closed);
    }

    @Test
    void aWriteAfterTheRequestWasRecycledIsADisconnect() {
        assertThat(ClientGone.cause(
                new IllegalStateException("Request/Response does not exist (likely recycled)"))).isNotNull();
    }

    @Test
    void aWriteTheClientDidNotReadForTheIdleTimeoutIsADisconnect() {
        // What Jersey's "Error while closing the output stream" carried in a fuzz run on JDK 25.
        java.util.concurrent.TimeoutException idle = new java.util.concurrent.TimeoutException("Idle timeout expired: 30001/30000 ms");
        assertThat(ClientGone.cause(new UncheckedIOException(new IOException(idle)))).isSameAs(idle);
        assertThat(ClientGone.cause(new java.util.concurrent.TimeoutException("some other deadline"))).isNull();
    }

    @Test
    void anHttp2StreamResetWhenJettyFailedTheClientsSessionIsADisconnect() {
        // What Jersey's "Error while closing the output stream" carried in a fuzz run on JDK 25 (h2 abuse): Jetty's
        // HTTP2Session.failStreams resets every stream of the failed session with a plain java.io.EOFException("reset").
        java.io.EOFException reset = new java.io.EOFException("reset");
        assertThat(ClientGone.cause(new UncheckedIOException(reset))).isSameAs(reset);
        assertThat(ClientGone.cause(new java.io.EOFException("end of some file"))).isNull();
    }

    @Test
    void anHttp2SessionFailedByTheClientsFramesIsADisconnectButNotAnInternalError() {
        // What each stream of that session fails with: Jetty's "<error code>/<reason>".
        assertThat(ClientGone.cause(new IOException("protocol_error/invalid_data_frame"))).isNotNull();
        assertThat(ClientGone.cause(new IOException("enhance_your_calm_error/invalid_rst_stream_frame_rate"))).isNotNull();
        assertThat(ClientGone.cause(new IOException("internal_error/boom"))).isNull();
        assertThat(ClientGone.cause(new IOException("/protocol_error"))).isNull();
    }

    @Test
    void otherFaultsAreNot() {
        assertThat(ClientGone.cause(null)).isNull();
        assertThat(ClientGone.cause(new IllegalStateException("boom"))).isNull();
        assertThat(ClientGone.cause(new IOException("No space left on device"))).isNull();
        assertThat(ClientGone.cause(new NullPointerException())).isNull();
    }

    @Test
    void aCauseCycleEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(ClientGone.cause(a)).isNull();
    }
}
