package dev.agentarena.junit.engine.scoring;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * One class's methods as canonical instruction text, free of debug information (line numbers, local variable names,
 * frames), so that reformatting leaves it unchanged, plus the methods each one calls.
 */
final class BytecodeModel {

    private static final int ASM = Opcodes.ASM9;

    /** A method by owner (internal name), name and descriptor. */
    record MethodRef(String owner, String name, String descriptor) {

        String key() {
            return name + descriptor;
        }
    }

    /** A method's instructions as text, what it calls, and whether it touches its class's static fields. */
    record MethodCode(String instructions, List<MethodRef> calls, boolean usesOwnStatics) {
    }

    private final String internalName;
    private final Map<String, MethodCode> methods;
    private final Map<String, String> constantFields;
    private final boolean readable;

    private BytecodeModel(String internalName, Map<String, MethodCode> methods, Map<String, String> constantFields,
            boolean readable) {
        this.internalName = internalName;
        this.readable = readable;
        this.methods = Collections.unmodifiableMap(methods);
        this.constantFields = Collections.unmodifiableMap(constantFields);
    }

    /**
     * Reads a class's bytecode; works for classes in directories, jars and the JDK's runtime image. A class without a
     * class file gives an empty, unreadable model.
     */
    static BytecodeModel read(Class<?> type) {
        String resource = "/" + type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getResourceAsStream(resource)) {
            if (in == null) {
                // Hidden classes (lambdas, proxies) have no class file; versioning must not break the run.
                return new BytecodeModel(Type.getInternalName(type), Map.of(), Map.of(), false);
            }
            return read(new ClassReader(in));
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot read the bytecode of " + type.getName() + ": " + e, e);
        }
    }

    private static BytecodeModel read(ClassReader reader) {
        String owner = reader.getClassName();
        Map<String, MethodCode> methods = new TreeMap<>();
        Map<String, String> constants = new TreeMap<>();
        reader.accept(new ClassVisitor(ASM) {
            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature,
                    Object value) {
                if (value != null) {
                    constants.put(name + ":" + descriptor, constant(value));
                }
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                return new Canonicalizer(owner, code -> methods.put(name + descriptor, code));
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new BytecodeModel(owner, methods, constants, true);
    }

    /** Whether the class file was found; generated classes have none and are versioned by name alone. */
    boolean readable() {
        return readable;
    }

    String internalName() {
        return internalName;
    }

    /** Every method, keyed by name and descriptor, sorted so that moving methods around changes nothing. */
    Map<String, MethodCode> methods() {
        return methods;
    }

    /** {@code static final} fields with compile-time constant values, as text. */
    Map<String, String> constantFields() {
        return constantFields;
    }

    private static String constant(Object value) {
        if (value instanceof Type) {
            return "type " + ((Type) value).getDescriptor();
        }
        if (value instanceof Handle handle) {
            return "handle " + handle.getTag() + " " + handle.getOwner() + "." + handle.getName() + handle.getDesc();
        }
        if (value instanceof ConstantDynamic condy) {
            return "condy " + condy.getName() + condy.getDescriptor() + " " + constant(condy.getBootstrapMethod());
        }
        // The type matters: 1 and 1L and "1" are different constants.
        return value.getClass().getSimpleName() + " " + value;
    }

    /** Writes each instruction as a line; labels are numbered in order of appearance. */
    private static final class Canonicalizer extends MethodVisitor {

        private final String owner;
        private final java.util.function.Consumer<MethodCode> sink;
        private final StringBuilder text = new StringBuilder();
        private final List<MethodRef> calls = new ArrayList<>();
        private final Map<Label, Integer> labels = new IdentityHashMap<>();
        private boolean usesOwnStatics;

        Canonicalizer(String owner, java.util.function.Consumer<MethodCode> sink) {
            super(ASM);
            this.owner = owner;
            this.sink = sink;
        }

        private String label(Label label) {
            return "L" + labels.computeIfAbsent(label, l -> labels.size());
        }

        private void line(Object... parts) {
            for (int i = 0; i < parts.length; i++) {
                text.append(i == 0 ? "" : " ").append(parts[i]);
            }
            text.append('\n');
        }

        @Override
        public void visitInsn(int opcode) {
            line(opcode);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            line(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int varIndex) {
            line(opcode, varIndex);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            line(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
            if (fieldOwner.equals(owner) && (opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC)) {
                usesOwnStatics = true;
            }
            line(opcode, fieldOwner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String methodOwner, String name, String descriptor,
                boolean isInterface) {
            calls.add(new MethodRef(methodOwner, name, descriptor));
            line(opcode, methodOwner, name, descriptor, isInterface);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
            StringBuilder args = new StringBuilder();
            for (Object argument : arguments) {
                // A lambda's body lives in a synthetic method named by a handle argument: follow it.
                if (argument instanceof Handle handle) {
                    calls.add(new MethodRef(handle.getOwner(), handle.getName(), handle.getDesc()));
                }
                args.append(constant(argument)).append(';');
            }
            line("indy", name, descriptor, constant(bootstrap), args);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            line(opcode, label(label));
        }

        @Override
        public void visitLabel(Label label) {
            line(label(label) + ":");
        }

        @Override
        public void visitLdcInsn(Object value) {
            line("ldc", constant(value));
        }

        @Override
        public void visitIincInsn(int varIndex, int increment) {
            line("iinc", varIndex, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... targets) {
            StringBuilder all = new StringBuilder();
            for (Label target : targets) {
                all.append(label(target)).append(',');
            }
            line("tableswitch", min, max, label(dflt), all);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] targets) {
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < keys.length; i++) {
                all.append(keys[i]).append('=').append(label(targets[i])).append(',');
            }
            line("lookupswitch", label(dflt), all);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
            line("multianewarray", descriptor, dimensions);
        }

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            line("try", label(start), label(end), label(handler), type);
        }

        @Override
        public void visitEnd() {
            sink.accept(new MethodCode(text.toString(), List.copyOf(calls), usesOwnStatics));
        }
    }
}
