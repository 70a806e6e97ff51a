package dev.agentarena.junit.engine.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A bubblewrap ({@code bwrap}) sandbox: new namespaces, a read-only root of {@code /usr} and the interpreter, the
 * program at {@code /code}, size-limited tmpfs at {@code /tmp} and {@code /dev/shm} as the only writable places,
 * {@code prlimit} limits, the {@link SeccompFilter}, and a memory cgroup per program where the JVM can make one
 * ({@link MemoryCgroups}).
 *
 * <p>Invariants callers rely on: bwrap starts with an empty environment; as root it runs as {@link #SANDBOX_UID};
 * the program runs under a pid-1 shell, so when bwrap exits no process of the program is left. Why each of these is
 * needed (each was found by attacking it) is in {@code docs/guides/hardening.md}.
 */
final class Bubblewrap implements Sandbox {

    /** The host uid (and gid) the sandbox runs as when the JVM runs as root: {@code nobody} on Debian. */
    static final int SANDBOX_UID = 65534;

    /** Where the program's directory appears. */
    static final String PROGRAM_DIRECTORY = "/code";

    private static final List<String> SYSTEM_LINKS = List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");
    private static final List<String> LOADER_FILES = List.of("/etc/ld.so.cache", "/etc/ld.so.conf",
            "/etc/ld.so.conf.d", "/etc/localtime");
    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";
    /**
     * The first process, the JVM's child: joins the cgroup named by $1 (when not empty), opens the seccomp filter named
     * by $2 (when not empty) as descriptor 3 for bwrap, then becomes the rest of its arguments.
     */
    static final String LAUNCHER = "if [ -n \"$1\" ]; then echo $$ > \"$1\" || exit 125; fi; "
            + "if [ -n \"$2\" ]; then exec 3< \"$2\" || exit 125; fi; shift 2; exec \"$@\"";

    private final Path bwrap;
    private final String version;
    private final Path setpriv;
    private final Path prlimit;
    private final List<String> systemArguments;
    private final List<Path> visibleRoots;
    private final Path seccompFilter;
    private final MemoryCgroups cgroups;
    private final List<String> procfsHidden;

    /**
     * @param setpriv the {@code setpriv} that drops root to {@link #SANDBOX_UID}, or {@code null} when the JVM is not
     *        root
     * @param prlimit the {@code prlimit} executable, under a directory the sandbox shows
     * @param seccompFilter the file holding the {@link SeccompFilter} for this machine, or {@code null} where there is
     *        none
     * @param cgroups where each program gets a memory cgroup, or {@code null} where the JVM cannot make one
     */
    Bubblewrap(Path bwrap, String version, Path setpriv, Path prlimit, Path seccompFilter, MemoryCgroups cgroups) {
        this.bwrap = bwrap;
        this.version = version;
        this.setpriv = setpriv;
        this.prlimit = prlimit;
        this.seccompFilter = seccompFilter;
        this.cgroups = cgroups;
        this.systemArguments = new ArrayList<>();
        this.visibleRoots = new ArrayList<>();
        systemArguments.addAll(List.of("--ro-bind", "/usr", "/usr"));
        visibleRoots.add(Paths.get("/usr"));
        for (String name : SYSTEM_LINKS) {
            Path path = Paths.get("/", name);
            try {
                if (Files.isSymbolicLink(path)) {
                    // merged /usr: /bin -> usr/bin, kept as a link
                    systemArguments.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(),
                            path.toString()));
                }
                else if (Files.isDirectory(path)) {
                    systemArguments.addAll(List.of("--ro-bind", path.toString(), path.toString()));
                    visibleRoots.add(path);
                }
            }
            catch (IOException e) {
                // unreadable link: left out, as if absent
            }
        }
        for (String file : LOADER_FILES) {
            systemArguments.addAll(List.of("--ro-bind-try", file, file));
        }
        // The keys of the keyrings the program possesses (the JVM's session keyring) are listed, with their
        // descriptions, in /proc/keys: a device node over them, unusable on /proc (nodev), makes reading it fail.
        this.procfsHidden = new ArrayList<>();
        for (String file : List.of("/proc/keys", "/proc/key-users")) {
            if (Files.exists(Paths.get(file))) {
                procfsHidden.addAll(List.of("--ro-bind", "/dev/null", file));
            }
        }
    }

    @Override
    public String description() {
        return version + (setpriv == null ? "" : " as uid " + SANDBOX_UID)
                + (seccompFilter == null ? ", no seccomp filter" : ", seccomp filter")
                + (cgroups == null ? ", no memory cgroup" : ", " + cgroups.description());
    }

    /** Whether each program gets a memory cgroup of its own. */
    boolean boundsTotalMemory() {
        return cgroups != null;
    }

    /** Where each program gets a memory cgroup, or {@code null}. */
    MemoryCgroups cgroups() {
        return cgroups;
    }

    /** Whether the seccomp filter is installed. */
    boolean filtersSystemCalls() {
        return seccompFilter != null;
    }

    @Override
    public boolean isolated() {
        return true;
    }

    @Override
    public String programFile(Path hostDirectory, String fileName) {
        return PROGRAM_DIRECTORY + "/" + fileName;
    }

    @Override
    public void share(Path hostDirectory) throws IOException {
        if (setpriv == null) {
            return;
        }
        // The directory is the JVM's (mode 700); bwrap runs as the sandbox's uid and must read it to bind it.
        List<Path> paths = new ArrayList<>();
        paths.add(hostDirectory);
        try (var files = Files.list(hostDirectory)) {
            files.forEach(paths::add);
        }
        for (Path path : paths) {
            Files.setAttribute(path, "unix:uid", SANDBOX_UID);
            Files.setAttribute(path, "unix:gid", SANDBOX_UID);
        }
    }

    @Override
    public Launch launch(List<String> command, Path hostDirectory, Collection<Path> interpreterPaths,
            ProcessLimits limits) throws IOException {
        MemoryCgroups.Cgroup cgroup = null;
        if (cgroups != null) {
            try {
                cgroup = cgroups.create(limits.memoryBytes());
            }
            catch (IOException e) {
                throw new IOException("cannot make the program's memory cgroup under " + cgroups.parent() + ": " + e,
                        e);
            }
        }
        ProcessBuilder builder = processBuilder(arguments(command, hostDirectory, interpreterPaths, limits,
                cgroup == null ? null : cgroup.procs()));
        return new CgroupLaunch(builder, cgroup, limits);
    }

    /** A start, with the program's memory cgroup when there is one. */
    private record CgroupLaunch(ProcessBuilder process, MemoryCgroups.Cgroup cgroup, ProcessLimits limits)
            implements Launch {

        @Override
        public List<String> limitsReached() {
            if (cgroup == null) {
                return List.of();
            }
            long megabytes = limits.memoryBytes() >> 20;
            long kills = cgroup.oomKills();
            if (kills > 0) {
                return List.of("memory limit: " + megabytes + " MB for the whole program, option memory_mb: the "
                        + "kernel killed " + kills + (kills == 1 ? " process" : " processes") + " of it");
            }
            if (cgroup.limitReached() > 0) {
                return List.of("memory limit: " + megabytes + " MB for the whole program reached, option memory_mb");
            }
            return List.of();
        }

        @Override
        public long peakMemoryBytes() {
            return cgroup == null ? -1 : cgroup.peakBytes();
        }

        @Override
        public void close() {
            if (cgroup != null) {
                cgroup.close();
            }
        }
    }

    /** Whether the sandbox shows this host path without a bind of its own. */
    boolean shows(Path path) {
        Path normal = path.toAbsolutePath().normalize();
        return visibleRoots.stream().anyMatch(normal::startsWith);
    }

    /**
     * The command line: a shell that moves itself into the program's memory cgroup and opens the seccomp filter as
     * file descriptor 3, then bwrap and its options, then prlimit and the shell that runs the command as pid 1.
     *
     * @param cgroupProcs the {@code cgroup.procs} file of the program's memory cgroup, or {@code null}
     */
    List<String> arguments(List<String> command, Path hostDirectory, Collection<Path> interpreterPaths,
            ProcessLimits limits, Path cgroupProcs) {
        List<String> arguments = new ArrayList<>();
        // Joined before anything of the program runs: every process it makes is born in the cgroup.
        arguments.addAll(List.of("/bin/sh", "-c", LAUNCHER, "arena-sandbox",
                cgroupProcs == null ? "" : cgroupProcs.toString(),
                seccompFilter == null ? "" : seccompFilter.toString()));
        if (setpriv != null) {
            arguments.addAll(List.of(setpriv.toString(), "--reuid=" + SANDBOX_UID, "--regid=" + SANDBOX_UID,
                    "--clear-groups"));
        }
        arguments.add(bwrap.toString());
        arguments.addAll(List.of("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                "--new-session", "--as-pid-1", "--hostname", "arena-sandbox"));
        if (seccompFilter != null) {
            arguments.addAll(List.of("--seccomp", "3"));
        }
        arguments.addAll(List.of("--clearenv", "--setenv", "PATH", PATH, "--setenv", "HOME", "/tmp", "--setenv",
                "TMPDIR", "/tmp", "--setenv", "LANG", "C.UTF-8", "--setenv", "LC_ALL", "C.UTF-8"));
        arguments.addAll(systemArguments);
        for (Path path : interpreterPaths) {
            if (!shows(path)) {
                arguments.addAll(List.of("--ro-bind", path.toString(), path.toString()));
            }
        }
        String tmpSize = String.valueOf(limits.tmpBytes());
        arguments.addAll(List.of("--proc", "/proc"));
        arguments.addAll(procfsHidden);
        arguments.addAll(List.of("--dev", "/dev", "--size", tmpSize, "--tmpfs", "/dev/shm",
                "--remount-ro", "/dev", "--size", tmpSize, "--tmpfs", "/tmp"));
        if (hostDirectory != null) {
            arguments.addAll(List.of("--ro-bind", hostDirectory.toString(), PROGRAM_DIRECTORY));
        }
        // The root itself is a tmpfs: writable, and without a size limit, until remounted.
        arguments.addAll(List.of("--remount-ro", "/", "--chdir", "/tmp", "--"));
        long cpu = limits.cpuSeconds();
        // The soft CPU limit sends SIGXCPU, which names itself in the exit status; the hard one, a second later,
        // SIGKILL for a program that ignores it.
        arguments.addAll(List.of(prlimit.toString(), "--nproc=" + limits.maxProcesses(),
                "--data=" + limits.memoryBytes(), "--fsize=" + limits.maxFileBytes(), "--cpu=" + cpu + ":" + (cpu + 1),
                "--core=0", "--"));
        arguments.addAll(List.of("/bin/sh", "-c", "\"$@\"; exit $?", "arena-sandbox"));
        arguments.addAll(command);
        return arguments;
    }

    static ProcessBuilder processBuilder(List<String> arguments) {
        ProcessBuilder builder = new ProcessBuilder(arguments).directory(new File("/"));
        // Not only --clearenv: the sandbox can read /proc/<pid>/environ of bwrap's own processes.
        builder.environment().clear();
        return builder;
    }
}
