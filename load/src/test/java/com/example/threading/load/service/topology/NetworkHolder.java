package com.example.threading.load.service.topology;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A child JVM for {@link NetworkTest}: builds a two-host network, runs {@code sleep} on one host, says so on stdout and
 * waits to be interrupted or killed.
 */
public final class NetworkHolder {

    private NetworkHolder() {
    }

    /** {@code args[0]}: the sleeper's log file. */
    public static void main(String[] args) throws Exception {
        try (Network network = Network.create(List.of("a", "b"))) {
            HostProcess sleeper = HostProcess.start(network, network.host("a"), List.of("sleep", "300"), Map.of(), Optional.empty(),
                    Path.of(args[0]));
            System.out.println("ready " + network.prefix() + " " + sleeper.pid());
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
