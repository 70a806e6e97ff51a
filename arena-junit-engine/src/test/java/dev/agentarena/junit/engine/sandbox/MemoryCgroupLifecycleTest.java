package dev.agentarena.junit.engine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A program's memory cgroup on this machine: limited as asked, joined by the launcher, and removed afterwards even
 * when a process is still in it. Skipped where the JVM cannot make memory cgroups.
 */
class MemoryCgroupLifecycleTest {

    @Test
    void aProcessLeftInTheCgroupIsKilledAndTheCgroupRemoved() throws Exception {
        MemoryCgroups cgroups = MemoryCgroups.locate().orElse(null);
        Assumptions.assumeTrue(cgroups != null, "the JVM cannot make memory cgroups here");
        MemoryCgroups.Cgroup cgroup = cgroups.create(96L << 20);
        Process sleeper;
        try {
            String limitFile = cgroups.version() == MemoryCgroups.Version.V2 ? "memory.max" : "memory.limit_in_bytes";
            assertThat(Files.readString(cgroup.directory().resolve(limitFile)).strip())
                    .isEqualTo(String.valueOf(96L << 20));
            // the launcher joins the cgroup, then runs the command in its place: the command's first line comes after
            sleeper = new ProcessBuilder(List.of("/bin/sh", "-c", Bubblewrap.LAUNCHER, "arena-sandbox",
                    cgroup.procs().toString(), "", "/bin/sh", "-c", "echo started; exec sleep 300")).start();
            BufferedReader output = new BufferedReader(new InputStreamReader(sleeper.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(output.readLine()).as("the command ran").isEqualTo("started");
            assertThat(Files.readAllLines(cgroup.procs())).as("the launcher joined the cgroup")
                    .contains(String.valueOf(sleeper.pid()));
        }
        finally {
            cgroup.close();
        }

        assertThat(cgroup.directory()).doesNotExist();
        assertThat(sleeper.waitFor(30, TimeUnit.SECONDS)).as("the process in it was killed").isTrue();
    }
}
