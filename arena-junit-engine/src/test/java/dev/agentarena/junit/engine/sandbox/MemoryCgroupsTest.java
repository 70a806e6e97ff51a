package dev.agentarena.junit.engine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Paths;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.sandbox.MemoryCgroups.Version;

/** Where the JVM's memory cgroup is, read from {@code /proc/self/mountinfo} and {@code /proc/self/cgroup}. */
class MemoryCgroupsTest {

    private static final List<String> HYBRID_MOUNTS = List.of(
            "30 25 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755",
            "31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw",
            "35 30 0:31 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,memory",
            "36 30 0:32 / /sys/fs/cgroup/pids rw,nosuid,nodev,noexec,relatime shared:16 - cgroup cgroup rw,pids");
    private static final List<String> HYBRID_MEMBERSHIP = List.of("8:pids:/", "4:memory:/build/job-7", "0::/");

    @Test
    void findsTheMemoryHierarchyOfCgroupV1AndTheJvmsPlaceInIt() {
        assertThat(MemoryCgroups.ownCgroup(Version.V1, HYBRID_MOUNTS, HYBRID_MEMBERSHIP))
                .contains(Paths.get("/sys/fs/cgroup/memory/build/job-7"));
    }

    @Test
    void findsTheUnifiedHierarchy() {
        List<String> mounts = List.of("29 24 0:25 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 "
                + "cgroup2 rw,nsdelegate,memory_recursiveprot");

        assertThat(MemoryCgroups.ownCgroup(Version.V2, mounts, List.of("0::/system.slice/ci.service")))
                .contains(Paths.get("/sys/fs/cgroup/system.slice/ci.service"));
        assertThat(MemoryCgroups.ownCgroup(Version.V1, mounts, List.of("0::/system.slice/ci.service"))).isEmpty();
    }

    @Test
    void aMountOfPartOfTheHierarchyIsResolvedFromItsRoot() {
        // a container that sees its own cgroup mounted as the hierarchy's root
        List<String> mounts = List.of("40 30 0:31 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory");

        assertThat(MemoryCgroups.ownCgroup(Version.V1, mounts, List.of("4:memory:/docker/abc/arena")))
                .contains(Paths.get("/sys/fs/cgroup/memory/arena"));
    }

    @Test
    void noMemoryControllerNoCgroup() {
        List<String> mounts = List.of(
                "36 30 0:32 / /sys/fs/cgroup/pids rw,nosuid,nodev,noexec,relatime shared:16 - cgroup cgroup rw,pids");

        assertThat(MemoryCgroups.ownCgroup(Version.V1, mounts, HYBRID_MEMBERSHIP)).isEmpty();
        assertThat(MemoryCgroups.ownCgroup(Version.V2, mounts, HYBRID_MEMBERSHIP)).isEmpty();
    }

    @Test
    void aPathThatLeavesTheMountIsRefused() {
        assertThat(MemoryCgroups.ownCgroup(Version.V1, HYBRID_MOUNTS, List.of("4:memory:/../../etc"))).isEmpty();
    }
}
