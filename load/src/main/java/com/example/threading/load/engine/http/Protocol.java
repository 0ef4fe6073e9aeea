package com.example.threading.load.engine.http;

import org.mortbay.jetty.load.generator.HTTP1ClientTransportBuilder;
import org.mortbay.jetty.load.generator.HTTP2ClientTransportBuilder;
import org.mortbay.jetty.load.generator.HTTPClientTransportBuilder;

/** The wire protocol a load phase speaks. */
public enum Protocol {
    /** HTTP/1.1: one request at a time per connection. */
    HTTP1("HTTP/1.1"),
    /** HTTP/2 clear text with prior knowledge: many streams on one connection. */
    H2C("h2c");

    private final String label;

    Protocol(String label) {
        this.label = label;
    }

    /** As shown in reports. */
    public String label() {
        return label;
    }

    /** The load generator's transport for this protocol. */
    HTTPClientTransportBuilder transport() {
        return this == HTTP1 ? new HTTP1ClientTransportBuilder() : new HTTP2ClientTransportBuilder();
    }
}
