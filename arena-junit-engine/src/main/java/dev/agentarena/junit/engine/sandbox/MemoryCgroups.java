package dev.agentarena.junit.engine.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A memory cgroup per program, made under the JVM's own memory cgroup where the machine lets the JVM make one (as
 * root, or in a delegated subtree): the kernel then counts every page the program's processes cause, whichever way
 * they cause it (private and shared mappings, memfd and tmpfs files, System V shared memory, the inodes and dentries
 * of a flood of empty files, page tables, socket buffers), and holds the sum to {@code memory_mb}, swap included. At
 * the limit the kernel's OOM killer picks a process of that cgroup, never one outside it such as the JVM.
 *
 * <p>cgroup v2 (the unified hierarchy, with the memory controller enabled for the children of the JVM's cgroup) and
 * cgroup v1 (a hierarchy with the memory controller) are both used; v2 is preferred. Where neither can be written
 * {@link #locate} is empty, and the sandbox falls back to its per-process limits (see {@code docs/guides/hardening.md}).
 */
final class MemoryCgroups {

    /** The hierarchy's version, which decides the names of its files. */
    enum Version {
        V1, V2
    }

    private static final AtomicLong COUNTER = new AtomicLong();
    private static final Pattern STALE = Pattern.compile("arena-sandbox-(\\d{1,18})-\\d+");
    private static final long REMOVE_WAIT_MILLIS = 5000;

    private final Path parent;
    private final Version version;

    MemoryCgroups(Path parent, Version version) {
        this.parent = parent;
        this.version = version;
    }

    /** The JVM's memory cgroup, under which the programs' are made. */
    Path parent() {
        return parent;
    }

    Version version() {
        return version;
    }

    /** What the sandbox's description says of it. */
    String description() {
        return "memory cgroup " + (version == Version.V2 ? "v2" : "v1");
    }

    /**
     * Where this JVM can make memory cgroups: checked by making one, setting its limit and removing it.
     *
     * @return empty where no memory controller is mounted, or where the JVM may not make cgroups under its own
     */
    static Optional<MemoryCgroups> locate() {
        List<String> mounts;
        List<String> memberships;
        try {
            mounts = Files.readAllLines(Paths.get("/proc/self/mountinfo"));
            memberships = Files.readAllLines(Paths.get("/proc/self/cgroup"));
        }
        catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
        for (Version version : List.of(Version.V2, Version.V1)) {
            Optional<Path> own = ownCgroup(version, mounts, memberships);
            if (own.isPresent()) {
                MemoryCgroups cgroups = new MemoryCgroups(own.get(), version);
                cgroups.removeStale();
                if (cgroups.works()) {
                    return Optional.of(cgroups);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The directory of the JVM's cgroup in the hierarchy of that version that has the memory controller.
     *
     * @param mounts the lines of {@code /proc/self/mountinfo}
     * @param memberships the lines of {@code /proc/self/cgroup}
     */
    static Optional<Path> ownCgroup(Version version, List<String> mounts, List<String> memberships) {
        for (String mount : mounts) {
            // id parent major:minor root mount-point options [optional fields] - type source super-options
            int separator = mount.indexOf(" - ");
            if (separator < 0) {
                continue;
            }
            String[] fields = mount.substring(0, separator).split(" ");
            String[] tail = mount.substring(separator + 3).split(" ");
            if (fields.length < 5 || tail.length < 3) {
                continue;
            }
            String type = tail[0];
            boolean memory = version == Version.V2 ? type.equals("cgroup2")
                    : type.equals("cgroup") && List.of(tail[2].split(",")).contains("memory");
            if (!memory) {
                continue;
            }
            String root = unescape(fields[3]);
            Path mountPoint = Paths.get(unescape(fields[4]));
            for (String membership : memberships) {
                // hierarchy-id:controllers:path
                String[] parts = membership.split(":", 3);
                if (parts.length < 3) {
                    continue;
                }
                boolean matches = version == Version.V2 ? parts[0].equals("0") && parts[1].isEmpty()
                        : List.of(parts[1].split(",")).contains("memory");
                if (!matches) {
                    continue;
                }
                String path = parts[2];
                if (!root.equals("/") && (path.equals(root) || path.startsWith(root + "/"))) {
                    path = path.substring(root.length());
                }
                Path own = mountPoint.resolve(path.replaceFirst("^/+", "")).normalize();
                if (!own.startsWith(mountPoint)) {
                    continue;
                }
                return Optional.of(own);
            }
        }
        return Optional.empty();
    }

    /**
     * Removes the empty cgroups a JVM that no longer runs left behind (killed before it could remove them): they
     * would keep the JVM's own cgroup from being removed.
     */
    private void removeStale() {
        try (var children = Files.list(parent)) {
            children.filter(Files::isDirectory).forEach(child -> {
                Matcher name = STALE.matcher(child.getFileName().toString());
                if (name.matches() && ProcessHandle.of(Long.parseLong(name.group(1))).isEmpty()) {
                    try {
                        Files.deleteIfExists(child);
                    }
                    catch (IOException | RuntimeException e) {
                        // still holds a process, or not ours to remove: left alone
                    }
                }
            });
        }
        catch (IOException | RuntimeException e) {
            // unreadable: nothing to clean
        }
    }

    /** Whether a child can be made here, limited, and removed. */
    private boolean works() {
        try {
            if (version == Version.V2) {
                String controllers = read(parent.resolve("cgroup.controllers"));
                if (!List.of(controllers.strip().split(" ")).contains("memory")) {
                    return false;
                }
                String enabled = read(parent.resolve("cgroup.subtree_control"));
                if (!List.of(enabled.strip().split(" ")).contains("memory")) {
                    // refused (EBUSY) when the cgroup holds processes and is not the root: then no cgroup
                    Files.writeString(parent.resolve("cgroup.subtree_control"), "+memory");
                }
            }
            try (Cgroup probe = create(64L << 20)) {
                return Files.exists(probe.procs());
            }
        }
        catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Makes the cgroup of one program.
     *
     * @param memoryBytes the most memory its processes may cause together, swap included
     * @throws IOException when it cannot be made or limited (then nothing is left behind)
     */
    Cgroup create(long memoryBytes) throws IOException {
        Path directory = parent.resolve("arena-sandbox-" + ProcessHandle.current().pid() + "-"
                + COUNTER.incrementAndGet());
        Files.createDirectory(directory);
        Cgroup cgroup = new Cgroup(directory, version);
        try {
            String limit = Long.toString(memoryBytes);
            if (version == Version.V2) {
                Files.writeString(directory.resolve("memory.max"), limit);
                writeIfPresent(directory.resolve("memory.swap.max"), "0");
                // at the limit, the kernel ends the whole program, not one process of it
                writeIfPresent(directory.resolve("memory.oom.group"), "1");
            }
            else {
                Files.writeString(directory.resolve("memory.limit_in_bytes"), limit);
                // the memory and swap limit, written after the memory limit (it may not be below it)
                writeIfPresent(directory.resolve("memory.memsw.limit_in_bytes"), limit);
            }
        }
        catch (IOException | RuntimeException e) {
            cgroup.close();
            throw e;
        }
        return cgroup;
    }

    private static void writeIfPresent(Path file, String value) throws IOException {
        if (Files.exists(file)) {
            Files.writeString(file, value);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }

    /** {@code /proc/self/mountinfo} escapes spaces, tabs, newlines and backslashes as octal. */
    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    /** One program's memory cgroup: its processes join it by writing their pid to {@link #procs()}. */
    static final class Cgroup implements AutoCloseable {

        private final Path directory;
        private final Version version;

        Cgroup(Path directory, Version version) {
            this.directory = directory;
            this.version = version;
        }

        /** The file a process writes its pid to, to join. */
        Path procs() {
            return directory.resolve("cgroup.procs");
        }

        Path directory() {
            return directory;
        }

        /** How many processes the kernel killed for reaching the limit. */
        long oomKills() {
            return counter(version == Version.V2 ? "memory.events" : "memory.oom_control", "oom_kill");
        }

        /** How many times the program's memory reached the limit (and the kernel had to reclaim or refuse). */
        long limitReached() {
            if (version == Version.V2) {
                return counter("memory.events", "max");
            }
            try {
                return Long.parseLong(read(directory.resolve("memory.failcnt")).strip());
            }
            catch (IOException | NumberFormatException e) {
                return 0;
            }
        }

        /** The most memory the program held at once (v1 records it; v2 from kernel 5.19), or -1. */
        long peakBytes() {
            Path file = directory.resolve(version == Version.V2 ? "memory.peak" : "memory.max_usage_in_bytes");
            try {
                return Long.parseLong(read(file).strip());
            }
            catch (IOException | NumberFormatException e) {
                return -1;
            }
        }

        private long counter(String file, String key) {
            try {
                for (String line : Files.readAllLines(directory.resolve(file))) {
                    String[] parts = line.strip().split(" ");
                    if (parts.length == 2 && parts[0].equals(key)) {
                        return Long.parseLong(parts[1]);
                    }
                }
            }
            catch (IOException | NumberFormatException e) {
                // gone or unreadable: nothing counted
            }
            return 0;
        }

        /**
         * Removes the cgroup, once its processes are gone: any still in it (which the run should already have ended)
         * are killed first.
         *
         * @throws IllegalStateException when it cannot be removed, naming it
         */
        @Override
        public void close() {
            long deadline = System.nanoTime() + REMOVE_WAIT_MILLIS * 1_000_000;
            IOException last = null;
            while (true) {
                try {
                    Files.deleteIfExists(directory);
                    return;
                }
                catch (IOException e) {
                    last = e;
                }
                for (long pid : pids()) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("code_exec: cannot remove the program's memory cgroup "
                            + directory + " (processes " + pids() + "): " + last, last);
                }
                try {
                    Thread.sleep(25);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("code_exec: interrupted while removing " + directory, e);
                }
            }
        }

        private List<Long> pids() {
            List<Long> pids = new ArrayList<>();
            try {
                for (String line : Files.readAllLines(procs())) {
                    if (!line.isBlank()) {
                        pids.add(Long.parseLong(line.strip()));
                    }
                }
            }
            catch (IOException | NumberFormatException e) {
                // gone
            }
            return pids;
        }
    }
}
