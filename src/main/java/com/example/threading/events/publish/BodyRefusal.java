package com.example.threading.events.publish;

/** A publish's body that will not be published, and the status and message to answer it with. */
final class BodyRefusal extends Exception {
    private static final long serialVersionUID = 1L;

    private final int status;

    BodyRefusal(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The HTTP status of the answer. */
    int status() {
        return status;
    }
}
