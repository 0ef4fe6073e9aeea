package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Index;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * config.yml's default {@code jetty.headerFieldCache: false}: an HTTP/1.1 connection that has served two requests (the
 * parser builds its field cache on the second) holds no header field cache, which at Dropwizard's headerCacheSize
 * would be 48 KiB of heap per connection. {@link HeaderFieldCacheOnTest} shows the same connection with the cache on.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class HeaderFieldCacheTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"));

    @Test
    void aKeptAliveConnectionHoldsNoHeaderFieldCache() throws Exception {
        assertThat(fieldCachesAfterTwoRequests(APP)).containsExactly(false);
    }

    /**
     * Sends two requests on one kept-alive HTTP/1.1 connection and, while it is still open, reads whether the server
     * side of each open application connection holds cached header fields.
     */
    static List<Boolean> fieldCachesAfterTwoRequests(DropwizardAppExtension<ThreadingConfiguration> app) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), app.getLocalPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            for (int i = 0; i < 2; i++) {
                out.write(("GET /events?timeout=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: header-cache-test\r\n"
                        + "Accept: application/json\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                assertThat(in.readLine()).startsWith("HTTP/1.1 2");
                readRestOfAnswer(in);
            }
            ServerConnector application = null;
            for (Connector connector : app.getEnvironment().getApplicationContext().getServer().getConnectors()) {
                if (connector instanceof ServerConnector server && server.getLocalPort() == app.getLocalPort()) {
                    application = server;
                }
            }
            assertThat(application).isNotNull();
            return application.getConnectedEndPoints().stream().map(EndPoint::getConnection)
                    .filter(HttpConnection.class::isInstance).map(connection -> cachesFields((HttpConnection) connection)).toList();
        }
    }

    /** Whether the connection's parser holds cached header fields (none before its second request, none when switched off). */
    private static boolean cachesFields(HttpConnection connection) {
        Index<HttpField> cache = connection.getParser().getFieldCache();
        return cache != null && cache.size() > 0;
    }

    private static void readRestOfAnswer(BufferedReader in) throws Exception {
        int length = 0;
        boolean chunked = false;
        String line;
        while (!(line = in.readLine()).isEmpty()) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring("content-length:".length()).trim());
            }
            chunked |= lower.startsWith("transfer-encoding:") && lower.contains("chunked");
        }
        if (chunked) {
            while (true) {
                int size = Integer.parseInt(in.readLine().trim(), 16);
                if (size == 0) {
                    in.readLine();
                    return;
                }
                in.skip(size);
                in.readLine();
            }
        }
        in.skip(length);
    }
}
