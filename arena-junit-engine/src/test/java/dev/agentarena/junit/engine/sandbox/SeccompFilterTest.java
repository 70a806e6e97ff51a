package dev.agentarena.junit.engine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.agentarena.junit.engine.sandbox.SeccompFilter.Architecture;
import dev.agentarena.junit.engine.sandbox.SeccompFilter.Syscall;

/**
 * The seccomp filter, run on a small classic-BPF interpreter over the kernel's {@code seccomp_data}: what it answers
 * for every system call of both architectures, another architecture and the x32 ABI. The adversarial suite checks the
 * same filter in the kernel.
 */
class SeccompFilterTest {

    private static final int AUDIT_ARCH_I386 = 0x40000003;
    private static final int AUDIT_ARCH_ARM = 0x40000028;
    private static final int DENY = SeccompFilter.SECCOMP_RET_ERRNO | SeccompFilter.EPERM;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void deniesExactlyTheListedCallsWithEpermAndAllowsEveryOther(Architecture architecture) {
        byte[] program = SeccompFilter.program(architecture);
        Set<Integer> denied = SeccompFilter.DENIED.stream().map(architecture::number).collect(Collectors.toSet());

        for (int nr = 0; nr < 1024; nr++) {
            int expected = denied.contains(nr) ? DENY : SeccompFilter.SECCOMP_RET_ALLOW;
            assertThat(run(program, architecture.audit, nr)).as("system call %d on %s", nr, architecture)
                    .isEqualTo(expected);
        }
    }

    @Test
    void killsACallOfAnotherArchitectureWhateverItsNumber() {
        for (Architecture architecture : Architecture.values()) {
            byte[] program = SeccompFilter.program(architecture);
            for (int arch : List.of(AUDIT_ARCH_I386, AUDIT_ARCH_ARM, Architecture.values()[1 - architecture.ordinal()]
                    .audit)) {
                for (int nr : List.of(0, 1, 59, 250, 1000)) {
                    assertThat(run(program, arch, nr)).isEqualTo(SeccompFilter.SECCOMP_RET_KILL_PROCESS);
                }
            }
        }
    }

    @Test
    void deniesTheX32AbiOnX86_64() {
        byte[] program = SeccompFilter.program(Architecture.X86_64);

        assertThat(run(program, Architecture.X86_64.audit, SeccompFilter.X32_SYSCALL_BIT | 250)).isEqualTo(DENY);
        assertThat(run(program, Architecture.X86_64.audit, SeccompFilter.X32_SYSCALL_BIT)).isEqualTo(DENY);
        assertThat(run(program, Architecture.AARCH64.audit, SeccompFilter.X32_SYSCALL_BIT))
                .as("aarch64 has no such bit").isEqualTo(SeccompFilter.SECCOMP_RET_KILL_PROCESS);
        assertThat(run(SeccompFilter.program(Architecture.AARCH64), Architecture.AARCH64.audit,
                SeccompFilter.X32_SYSCALL_BIT)).isEqualTo(SeccompFilter.SECCOMP_RET_ALLOW);
    }

    @Test
    void namesEachCallOnceWithDistinctNumbersAndAReason() {
        assertThat(SeccompFilter.DENIED).extracting(Syscall::name).doesNotHaveDuplicates();
        for (Architecture architecture : Architecture.values()) {
            assertThat(SeccompFilter.DENIED).extracting(architecture::number).doesNotHaveDuplicates();
        }
        assertThat(SeccompFilter.deniedNames().values()).containsOnly("keyring", "memory", "kernel");
        assertThat(SeccompFilter.deniedNames()).containsKeys("keyctl", "add_key", "request_key", "memfd_create",
                "shmget", "bpf", "userfaultfd", "io_uring_setup", "ptrace");
    }

    @Test
    void theNumbersAreThoseOfTheKernelHeadersWhereInstalled() throws IOException {
        Map<Architecture, Path> headers = Map.of(
                Architecture.X86_64, Paths.get("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
                Architecture.AARCH64, Paths.get("/usr/include/asm-generic/unistd.h"));
        int checked = 0;
        for (Map.Entry<Architecture, Path> header : headers.entrySet()) {
            if (!Files.isRegularFile(header.getValue())) {
                continue;
            }
            Map<String, Integer> numbers = numbers(header.getValue());
            for (Syscall call : SeccompFilter.DENIED) {
                if (numbers.containsKey(call.name())) {
                    assertThat(header.getKey().number(call)).as("%s in %s", call.name(), header.getValue())
                            .isEqualTo(numbers.get(call.name()));
                    checked++;
                }
            }
        }
        Assumptions.assumeTrue(checked > 0, "no kernel headers installed");
    }

    @Test
    void isEncodedAsTheKernelReadsIt() {
        byte[] program = SeccompFilter.program(Architecture.X86_64);
        ByteBuffer buffer = ByteBuffer.wrap(program).order(ByteOrder.nativeOrder());

        assertThat(program.length % 8).isZero();
        assertThat(program.length / 8).isEqualTo(SeccompFilter.DENIED.size() + 7).isLessThan(4096);
        // ld [4]: the architecture
        assertThat(buffer.getShort(0)).isEqualTo((short) 0x20);
        assertThat(buffer.getInt(4)).isEqualTo(4);
        // the last instruction: ret KILL_PROCESS
        assertThat(buffer.getShort(program.length - 8)).isEqualTo((short) 0x06);
        assertThat(buffer.getInt(program.length - 4)).isEqualTo(SeccompFilter.SECCOMP_RET_KILL_PROCESS);
    }

    private static Map<String, Integer> numbers(Path header) throws IOException {
        Pattern define = Pattern.compile("^#define __NR(?:3264)?_(\\w+)\\s+(\\d+)\\s*$");
        Map<String, Integer> numbers = new HashMap<>();
        for (String line : Files.readAllLines(header)) {
            Matcher matcher = define.matcher(line.strip());
            if (matcher.matches()) {
                numbers.putIfAbsent(matcher.group(1), Integer.parseInt(matcher.group(2)));
            }
        }
        return numbers;
    }

    /** Runs the filter as the kernel would, on a {@code seccomp_data} of the architecture and call number. */
    static int run(byte[] program, int arch, int nr) {
        ByteBuffer code = ByteBuffer.wrap(program).order(ByteOrder.nativeOrder());
        ByteBuffer data = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        data.putInt(0, nr);
        data.putInt(4, arch);
        int accumulator = 0;
        int pc = 0;
        for (int steps = 0; steps < 10_000; steps++) {
            int base = pc * 8;
            assertThat(base).as("the program runs off its end").isLessThan(program.length);
            int op = code.getShort(base) & 0xffff;
            int jt = code.get(base + 2) & 0xff;
            int jf = code.get(base + 3) & 0xff;
            int k = code.getInt(base + 4);
            switch (op) {
                case 0x20 -> {
                    accumulator = data.getInt(k);
                    pc++;
                }
                case 0x15 -> pc += 1 + (accumulator == k ? jt : jf);
                case 0x35 -> pc += 1 + (Integer.compareUnsigned(accumulator, k) >= 0 ? jt : jf);
                case 0x06 -> {
                    return k;
                }
                default -> throw new AssertionError("unknown instruction " + Integer.toHexString(op) + " at " + pc);
            }
        }
        throw new AssertionError("the program does not end");
    }
}
