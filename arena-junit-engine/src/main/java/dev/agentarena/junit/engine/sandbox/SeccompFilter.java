package dev.agentarena.junit.engine.sandbox;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The seccomp filter bubblewrap installs before it starts the program ({@code bwrap --seccomp FD}): a classic BPF
 * program, assembled here since the JVM has no libseccomp, that checks the architecture (another ABI kills the
 * process) and makes each system call of {@link #DENIED} fail with {@code EPERM}, allowing every other. Only for
 * x86_64 and aarch64; elsewhere {@link #forThisMachine} is empty. What is denied and why: {@code docs/guides/hardening.md}.
 */
final class SeccompFilter {

    /** A system call to deny, with its number on each architecture and the reason. */
    record Syscall(String name, int x86_64, int aarch64, String why) {
    }

    /** What the filter denies. The numbers are those of the kernel's {@code unistd} tables (checked by a test). */
    static final List<Syscall> DENIED = List.of(
            new Syscall("keyctl", 250, 219, "keyring"),
            new Syscall("add_key", 248, 217, "keyring"),
            new Syscall("request_key", 249, 218, "keyring"),
            new Syscall("memfd_create", 319, 279, "memory"),
            new Syscall("memfd_secret", 447, 447, "memory"),
            new Syscall("shmget", 29, 194, "memory"),
            new Syscall("shmat", 30, 196, "memory"),
            new Syscall("shmctl", 31, 195, "memory"),
            new Syscall("shmdt", 67, 197, "memory"),
            new Syscall("msgget", 68, 186, "memory"),
            new Syscall("msgsnd", 69, 189, "memory"),
            new Syscall("msgrcv", 70, 188, "memory"),
            new Syscall("msgctl", 71, 187, "memory"),
            new Syscall("semget", 64, 190, "memory"),
            new Syscall("semop", 65, 193, "memory"),
            new Syscall("semctl", 66, 191, "memory"),
            new Syscall("semtimedop", 220, 192, "memory"),
            new Syscall("mq_open", 240, 180, "memory"),
            new Syscall("ptrace", 101, 117, "kernel"),
            new Syscall("process_vm_readv", 310, 270, "kernel"),
            new Syscall("process_vm_writev", 311, 271, "kernel"),
            new Syscall("bpf", 321, 280, "kernel"),
            new Syscall("perf_event_open", 298, 241, "kernel"),
            new Syscall("userfaultfd", 323, 282, "kernel"),
            new Syscall("io_uring_setup", 425, 425, "kernel"),
            new Syscall("io_uring_enter", 426, 426, "kernel"),
            new Syscall("io_uring_register", 427, 427, "kernel"),
            new Syscall("unshare", 272, 97, "kernel"),
            new Syscall("setns", 308, 268, "kernel"),
            new Syscall("mount", 165, 40, "kernel"),
            new Syscall("umount2", 166, 39, "kernel"),
            new Syscall("pivot_root", 155, 41, "kernel"),
            new Syscall("chroot", 161, 51, "kernel"),
            new Syscall("open_tree", 428, 428, "kernel"),
            new Syscall("move_mount", 429, 429, "kernel"),
            new Syscall("fsopen", 430, 430, "kernel"),
            new Syscall("fsconfig", 431, 431, "kernel"),
            new Syscall("fsmount", 432, 432, "kernel"),
            new Syscall("fspick", 433, 433, "kernel"),
            new Syscall("mount_setattr", 442, 442, "kernel"),
            new Syscall("kexec_load", 246, 104, "kernel"),
            new Syscall("kexec_file_load", 320, 294, "kernel"),
            new Syscall("init_module", 175, 105, "kernel"),
            new Syscall("finit_module", 313, 273, "kernel"),
            new Syscall("delete_module", 176, 106, "kernel"));

    /** An architecture the filter knows: its {@code AUDIT_ARCH_*} value, as {@code seccomp_data.arch} holds it. */
    enum Architecture {
        X86_64(0xC000003E),
        AARCH64(0xC00000B7);

        final int audit;

        Architecture(int audit) {
            this.audit = audit;
        }

        int number(Syscall call) {
            return this == X86_64 ? call.x86_64() : call.aarch64();
        }

        /** The architecture of {@code os.arch} ({@code amd64}, {@code x86_64}, {@code aarch64}), if known. */
        static Optional<Architecture> of(String osArch) {
            return switch (osArch.toLowerCase(Locale.ROOT)) {
                case "amd64", "x86_64" -> Optional.of(X86_64);
                case "aarch64", "arm64" -> Optional.of(AARCH64);
                default -> Optional.empty();
            };
        }
    }

    static final int SECCOMP_RET_ALLOW = 0x7fff0000;
    static final int SECCOMP_RET_ERRNO = 0x00050000;
    static final int SECCOMP_RET_KILL_PROCESS = 0x80000000;
    static final int EPERM = 1;
    /** System call numbers with this bit set are the x32 ABI on x86_64, under the same {@code AUDIT_ARCH}. */
    static final int X32_SYSCALL_BIT = 0x40000000;

    // classic BPF opcodes (linux/bpf_common.h)
    static final int LD_W_ABS = 0x00 | 0x00 | 0x20;
    static final int JMP_JEQ_K = 0x05 | 0x10;
    static final int JMP_JGE_K = 0x05 | 0x30;
    static final int RET_K = 0x06;

    /** Offsets in {@code struct seccomp_data}. */
    static final int OFFSET_NR = 0;
    static final int OFFSET_ARCH = 4;

    private SeccompFilter() {
    }

    /** The filter for the JVM's architecture, or empty where there is none. */
    static Optional<byte[]> forThisMachine() {
        return Architecture.of(System.getProperty("os.arch", "")).map(SeccompFilter::program);
    }

    /** The denied calls, by name, with their reason, in the filter's order. */
    static Map<String, String> deniedNames() {
        Map<String, String> names = new LinkedHashMap<>();
        DENIED.forEach(call -> names.put(call.name(), call.why()));
        return names;
    }

    /** The filter for an architecture, as the kernel reads it: 8 bytes per instruction, native byte order. */
    static byte[] program(Architecture architecture) {
        List<int[]> instructions = instructions(architecture);
        ByteBuffer buffer = ByteBuffer.allocate(instructions.size() * 8).order(ByteOrder.nativeOrder());
        for (int[] instruction : instructions) {
            buffer.putShort((short) instruction[0]);
            buffer.put((byte) instruction[1]);
            buffer.put((byte) instruction[2]);
            buffer.putInt(instruction[3]);
        }
        return buffer.array();
    }

    /** The instructions, each {@code {code, jt, jf, k}}; jumps are relative to the next instruction. */
    static List<int[]> instructions(Architecture architecture) {
        List<int[]> program = new ArrayList<>();
        int checks = DENIED.size() + (architecture == Architecture.X86_64 ? 1 : 0);
        // layout: 0 load arch, 1 check arch, 2 load nr, 3.. checks, allow, deny, kill
        int allow = 3 + checks;
        int deny = allow + 1;
        int kill = deny + 1;
        program.add(new int[] {LD_W_ABS, 0, 0, OFFSET_ARCH});
        program.add(new int[] {JMP_JEQ_K, 0, jump(1, kill), architecture.audit});
        program.add(new int[] {LD_W_ABS, 0, 0, OFFSET_NR});
        if (architecture == Architecture.X86_64) {
            program.add(new int[] {JMP_JGE_K, jump(program.size(), deny), 0, X32_SYSCALL_BIT});
        }
        for (Syscall call : DENIED) {
            program.add(new int[] {JMP_JEQ_K, jump(program.size(), deny), 0, architecture.number(call)});
        }
        program.add(new int[] {RET_K, 0, 0, SECCOMP_RET_ALLOW});
        program.add(new int[] {RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM});
        program.add(new int[] {RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS});
        if (program.size() != kill + 1) {
            throw new IllegalStateException("seccomp filter: " + program.size() + " instructions, expected "
                    + (kill + 1));
        }
        return program;
    }

    /** A conditional jump's offset from the instruction at {@code from} to {@code to}: at most 255 ahead. */
    private static int jump(int from, int to) {
        int offset = to - from - 1;
        if (offset < 0 || offset > 255) {
            throw new IllegalStateException("seccomp filter: a jump of " + offset + " instructions");
        }
        return offset;
    }
}
