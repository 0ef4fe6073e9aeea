package com.example.threading.context;

import io.dropwizard.lifecycle.Managed;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.util.concurrent.TimeUnit;

/**
 * Which OpenTelemetry records this service's spans, decided once at start: one given by the application (a test's
 * in-memory SDK), else the one the OpenTelemetry Java agent installed, else an SDK exporting OTLP when
 * {@code context.tracing.exporter} is {@code otlp}, else none (the API's no-op: ids propagate, nothing is recorded).
 *
 * @param openTelemetry the instance spans are recorded with
 * @param recording     whether it records anything (false for the no-op)
 * @param source        where it came from, for the start-up log
 */
record Tracing(OpenTelemetry openTelemetry, boolean recording, String source) {

    /** The instrumentation scope of the spans this service starts. */
    static final String SCOPE = "com.example.threading";

    /** Decides as above; an SDK built here is closed (its last spans flushed) with the server's lifecycle. */
    static Tracing resolve(OpenTelemetry given, RequestContextConfiguration.Tracing configuration,
                           io.dropwizard.lifecycle.setup.LifecycleEnvironment lifecycle) {
        if (given != null) {
            return new Tracing(given, given != OpenTelemetry.noop(), "given by the application");
        }
        if (GlobalOpenTelemetry.isSet()) {
            return new Tracing(GlobalOpenTelemetry.get(), true, "the global instance (the OpenTelemetry Java agent's)");
        }
        if (configuration.getExporter() == RequestContextConfiguration.Exporter.OTLP) {
            OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .setResource(Resource.getDefault().merge(Resource.create(
                                    Attributes.builder().put("service.name", configuration.getServiceName()).build())))
                            .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                                    .setEndpoint(configuration.getEndpoint().toString()).build()).build())
                            .build())
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                    .build();
            lifecycle.manage(new Managed() {
                @Override
                public void stop() {
                    sdk.getSdkTracerProvider().shutdown().join(10, TimeUnit.SECONDS);
                }
            });
            return new Tracing(sdk, true, "an SDK exporting OTLP to " + configuration.getEndpoint());
        }
        return new Tracing(OpenTelemetry.noop(), false, "none (context.tracing.exporter: none): ids propagate, no span is recorded");
    }
}
