package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.zip.ZipException;
import org.eclipse.jetty.io.EofException;
import org.junit.jupiter.api.Test;

/** Which log events are a client's fault (kept out of WARN/ERROR), without a server. */
class QuietClientFaultsTest {

    @Test
    void clientFaultsAreRecognised() {
        assertThat(QuietClientFaults.clientFault("org.glassfish.jersey.server.ServerRuntime$Responder",
                "Error while closing the output stream in order to commit response.", new EofException("reset"))).isNotNull();
        assertThat(QuietClientFaults.clientFault("org.eclipse.jetty.http.HttpParser",
                "Encountered multiple `Host` headers. [x, y]", null)).isNotNull();
        assertThat(QuietClientFaults.clientFault("org.eclipse.jetty.util.HostPort", "Bad Authority: [{}] [/x]", null)).isNotNull();
        assertThat(QuietClientFaults.clientFault("org.eclipse.jetty.ee10.servlet.ServletChannelState", "x",
                new RuntimeException(new ZipException("Invalid gzip bytes")))).isNotNull();
        assertThat(QuietClientFaults.clientFault("org.eclipse.jetty.ee10.servlet.ServletChannel",
                "handleException {} {} [/events, java.util.zip.ZipException: Invalid gzip bytes]", null)).isNotNull();
    }

    @Test
    void serverFaultsAreNot() {
        assertThat(QuietClientFaults.clientFault("io.dropwizard.jersey.errors.LoggingExceptionMapper",
                "Error handling a request: {}", new IllegalStateException("bug"))).isNull();
        assertThat(QuietClientFaults.clientFault("org.eclipse.jetty.http.HttpParser", "parse failed", new IllegalStateException())).isNull();
        assertThat(QuietClientFaults.clientFault("com.example.Anything", "disk full", new IOException("No space left on device"))).isNull();
        assertThat(QuietClientFaults.clientFault("org.eclipse.jetty.util.thread.SerializedInvoker", "Serialized invocation error",
                new NullPointerException("_requestMetaData is null"))).isNull();
    }
}
