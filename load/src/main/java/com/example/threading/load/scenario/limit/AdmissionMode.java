package com.example.threading.load.scenario.limit;

import java.util.Map;

/**
 * Whether the service runs with its server-level admission control ({@code admission.enabled}) on (fixed limit),
 * off, or on with the adaptive limit ({@code admission.limit: gradient2}).
 */
enum AdmissionMode {
    /** {@code ADMISSION_ENABLED=true}, fixed limit: the excess is answered 503 after a short bounded wait. */
    ON,
    /** {@code ADMISSION_ENABLED=false}: requests beyond Jetty's pool wait in its unbounded job queue. */
    OFF,
    /** {@code ADMISSION_LIMIT=gradient2}: an adaptive limit up to the same ceiling, no queue, the excess 503 at once. */
    ADAPTIVE;

    /** {@code on} or {@code off}, as typed on the command line and shown in the report. */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The service's environment for this mode. */
    Map<String, String> environment() {
        return switch (this) {
            case ON -> Map.of("ADMISSION_ENABLED", "true", "ADMISSION_LIMIT", "fixed");
            case OFF -> Map.of("ADMISSION_ENABLED", "false");
            case ADAPTIVE -> Map.of("ADMISSION_ENABLED", "true", "ADMISSION_LIMIT", "gradient2");
        };
    }

    /** The name of the phase at {@code rate} in this mode, e.g. {@code admission-on-2000}. */
    String phaseName(int rate) {
        return "admission-" + label() + "-" + rate;
    }
}
