package com.example.threading.load.service.topology;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a topology needs from this machine: root (namespaces, routes, /etc/netns), {@code ip} that can add a network
 * namespace, {@code haproxy}, {@code redis-server}, {@code prlimit}. {@code tc} with netem and {@code nft} are used
 * for the link fault when present.
 */
public final class Prerequisites {

    /** The Debian packages that hold every tool the topology runs. */
    public static final String INSTALL = "apt-get install -y haproxy redis-server iproute2 nftables";

    private Prerequisites() {
    }

    /** What is missing, one sentence each; empty when a topology can run here. */
    public static List<String> missing() {
        List<String> missing = new ArrayList<>();
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid)) {
                missing.add("not root (uid " + uid + "): network namespaces need root");
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            missing.add("not Linux, or /proc unreadable: " + e.getMessage());
            return missing;
        }
        for (String tool : List.of("ip", "haproxy", "redis-server", "prlimit")) {
            if (!onPath(tool)) {
                missing.add(tool + " is not on the PATH");
            }
        }
        if (missing.isEmpty()) {
            String probe = "tp" + ProcessHandle.current().pid() + "-probe";
            try {
                Commands.run(List.of("ip", "netns", "add", probe));
                Commands.run(List.of("ip", "netns", "del", probe));
            } catch (IOException e) {
                missing.add("cannot add a network namespace: " + e.getMessage());
            }
        }
        return missing;
    }

    /** Whether {@code tool} is an executable in a folder of the PATH (or of the sbin folders root's PATH has). */
    public static boolean onPath(String tool) {
        return which(tool).isAbsolute();
    }

    /** The absolute path of {@code tool} (see {@link #onPath}), or just its name when it is nowhere. */
    static Path which(String tool) {
        Set<String> folders = new LinkedHashSet<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        folders.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        return folders.stream().filter(folder -> !folder.isEmpty()).map(folder -> Path.of(folder, tool))
                .filter(Files::isExecutable).findFirst().orElse(Path.of(tool));
    }
}
