package com.example.threading.load.scenario.limit;

import java.util.Map;

/** Whether the service runs with its server-level admission control ({@code admission.enabled}) on or off. */
enum AdmissionMode {
    /** {@code ADMISSION_ENABLED=true}: the excess is answered 503 after a short bounded wait. */
    ON,
    /** {@code ADMISSION_ENABLED=false}: requests beyond Jetty's pool wait in its unbounded job queue. */
    OFF;

    /** {@code on} or {@code off}, as typed on the command line and shown in the report. */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The service's environment for this mode. */
    Map<String, String> environment() {
        return Map.of("ADMISSION_ENABLED", this == ON ? "true" : "false");
    }

    /** The name of the phase at {@code rate} in this mode, e.g. {@code admission-on-2000}. */
    String phaseName(int rate) {
        return "admission-" + label() + "-" + rate;
    }
}
