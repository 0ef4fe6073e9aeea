package com.example.threading.context;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;

/**
 * The {@code context} section of config.yml: where traces go. Without an exporter (the default) no tracing SDK is built:
 * the request id, the trace context that came in (or a new trace id) and the caller still travel with every hand-off,
 * into the logs and to downstream calls, but no span is recorded. Under the OpenTelemetry Java agent, the agent's SDK
 * is used and this section's exporter is not.
 */
public final class RequestContextConfiguration {

    /** Where spans are exported. */
    public enum Exporter {
        /** Nowhere: no SDK, spans are not recorded (ids still propagate). */
        NONE,
        /** OTLP over HTTP (protobuf) to {@code tracing.endpoint}, in batches. */
        OTLP
    }

    /** How traces are recorded and exported. */
    @Valid
    @NotNull
    @JsonProperty
    private Tracing tracing = new Tracing();

    /** The {@code context.tracing} section. */
    public Tracing getTracing() {
        return tracing;
    }

    /** The {@code context.tracing} section: the exporter, its endpoint and this service's name on its spans. */
    public static final class Tracing {

        /** {@code none} (default) or {@code otlp}. */
        @NotNull
        @JsonProperty
        private Exporter exporter = Exporter.NONE;

        /** The OTLP/HTTP traces endpoint, e.g. an OpenTelemetry Collector's {@code http://127.0.0.1:4318/v1/traces}. */
        @NotNull
        @JsonProperty
        private URI endpoint = URI.create("http://127.0.0.1:4318/v1/traces");

        /** {@code service.name} on every span. */
        @NotEmpty
        @JsonProperty
        private String serviceName = "threading-reference";

        /** Where spans go. */
        public Exporter getExporter() {
            return exporter;
        }

        /** The OTLP endpoint. */
        public URI getEndpoint() {
            return endpoint;
        }

        /** This service's name on its spans. */
        public String getServiceName() {
            return serviceName;
        }
    }
}
