package com.example.threading.load.service;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The process whose CPU {@code --server-pid} asks to sample, checked: a pid taken from {@code $!} or a launcher
 * script is often the shell that started the JVM, whose own CPU stays at 0 % while the service works. When the
 * given process is not a JVM but exactly one of its descendants is, that JVM is sampled instead, and the caveat
 * says so; a process that does not exist, or whose CPU time cannot be read, is refused with a caveat.
 */
record ServerPid(Optional<ProcessHandle> process, List<String> caveats) {

    ServerPid {
        caveats = List.copyOf(caveats);
    }

    /** Resolves {@code --server-pid pid}. */
    static ServerPid resolve(long pid) {
        Optional<ProcessHandle> given = ProcessHandle.of(pid);
        if (given.isEmpty()) {
            return new ServerPid(Optional.empty(), List.of("Server CPU not measured: no process " + pid + " (--server-pid)."));
        }
        List<String> caveats = new ArrayList<>();
        ProcessHandle process = given.get();
        if (!isJvm(process)) {
            List<ProcessHandle> jvms = process.descendants().filter(ServerPid::isJvm).toList();
            if (jvms.size() == 1) {
                caveats.add("--server-pid " + pid + " is " + command(process) + ", not a JVM: the CPU of its child JVM " + jvms.get(0).pid()
                        + " is measured instead.");
                process = jvms.get(0);
            } else {
                caveats.add("--server-pid " + pid + " is " + command(process) + ", which does not look like a JVM"
                        + (jvms.isEmpty() ? "" : " and has " + jvms.size() + " JVMs below it")
                        + ": its own CPU is measured, which is not the service's if it only launched it.");
            }
        }
        if (process.info().totalCpuDuration().isEmpty()) {
            caveats.add("Server CPU not measured: the CPU time of process " + process.pid() + " cannot be read.");
            return new ServerPid(Optional.empty(), caveats);
        }
        return new ServerPid(Optional.of(process), caveats);
    }

    private static boolean isJvm(ProcessHandle process) {
        return process.info().command().map(command -> Path.of(command).getFileName().toString())
                .map(name -> name.equals("java") || name.equals("java.exe")).orElse(false);
    }

    private static String command(ProcessHandle process) {
        return "`" + process.info().command().orElse("unknown") + "`";
    }
}
