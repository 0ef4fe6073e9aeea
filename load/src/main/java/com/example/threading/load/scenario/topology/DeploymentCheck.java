package com.example.threading.load.scenario.topology;

/** One thing the deployment must do as documented, what it did, and whether that is it. */
record DeploymentCheck(String check, String expected, String observed, boolean passed) {
}
