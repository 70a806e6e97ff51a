package dev.agentarena.junit.engine.scoring;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apiguardian.api.API;
import org.objectweb.asm.Type;

/**
 * Scorer versions: a short digest of what a scorer does, so every score can cite the definition that produced it.
 *
 * <p>The digest covers bytecode instructions and constants, not source text: reformatting, comments and renamed
 * local variables make no new version, while a changed constant, threshold or instruction does. It also follows what
 * the scorer runs: the lambdas in it, and the methods it calls in classes of its own package, transitively; when any
 * of those reads a static field of its class, that class's static initialiser and constant fields are covered too
 * (so a changed {@code Pattern} constant counts). Calls into other packages (the JDK, libraries) are not followed:
 * upgrading a library makes no new version.
 *
 * <p>The version is the first 12 hex digits of a SHA-256. Classes without a class file (lambdas, proxies) are versioned
 * by name alone.
 *
 * <p>An API type that was renamed is digested under its former name ({@link #RENAMED_API_TYPES}): a rename changes
 * what a scorer's class file says, not what it does, so it must not make a new version of every scorer that mentions
 * the type and refuse every baseline that compares them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerVersions {

    private static final int LENGTH = 12;
    /**
     * API types renamed after scorers were first versioned, new internal name to former: {@code ScorerOptionValues}
     * was {@code ScorerOptions} until that name went to the container of {@code @ScorerOption} (issue 22).
     */
    private static final Map<String, String> RENAMED_API_TYPES = Map.of("dev/agentarena/junit/ScorerOptionValues",
            "dev/agentarena/junit/ScorerOptions",
            "dev/agentarena/junit/PreProcess", "dev/agentarena/junit/PreRequest",
            "dev/agentarena/junit/ProcessWith", "dev/agentarena/junit/Hooks",
            "dev/agentarena/junit/UseModels", "dev/agentarena/junit/Models");
    private static final ClassValue<BytecodeModel> MODELS = new ClassValue<>() {
        @Override
        protected BytecodeModel computeValue(Class<?> type) {
            return BytecodeModel.read(type);
        }
    };

    private ScorerVersions() {
    }

    /**
     * The version of a method scorer: its descriptor and instructions (not its name, so identical bodies share a
     * version) and everything it runs as described above.
     *
     * @throws IllegalStateException when the class file exists but cannot be read
     */
    public static String of(Method method) {
        Walk walk = new Walk(method.getDeclaringClass());
        walk.update("method " + Type.getMethodDescriptor(method));
        if (!MODELS.get(method.getDeclaringClass()).readable()) {
            walk.update("unreadable " + method.toGenericString());
        }
        walk.follow(new BytecodeModel.MethodRef(Type.getInternalName(method.getDeclaringClass()), method.getName(),
                Type.getMethodDescriptor(method)), false);
        return walk.finish();
    }

    /**
     * The version of a scorer class ({@link dev.agentarena.junit.scoring.OutputScorer}): every method it declares (by name,
     * in a stable order), its constant fields, and
     * what those methods run in its own package.
     *
     * <p>Accepts any class so that classes holding {@code @Scorer} methods can be versioned as a whole too.
     *
     * @throws IllegalStateException when the class file exists but cannot be read
     */
    public static String of(Class<?> type) {
        Walk walk = new Walk(type);
        BytecodeModel model = MODELS.get(type);
        if (!model.readable()) {
            walk.update("unreadable " + type.getName());
        }
        for (Map.Entry<String, String> constant : model.constantFields().entrySet()) {
            walk.update("constant " + constant.getKey() + "=" + constant.getValue());
        }
        for (String key : model.methods().keySet()) {
            int paren = key.indexOf('(');
            walk.follow(new BytecodeModel.MethodRef(model.internalName(), key.substring(0, paren),
                    key.substring(paren)), true);
        }
        return walk.finish();
    }

    /**
     * The name a scorer is registered under: {@code <eval-name>-<scorer-name>}, lowercased, {@code _} turned into
     * {@code -}. Scorer {@code exact_match} in eval {@code support-agent} is {@code support-agent-exact-match}.
     */
    public static String registryName(String evalName, String scorerName) {
        return (evalName + "-" + scorerName).toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A breadth-first walk over the methods a scorer runs, feeding their instructions to one digest. */
    private static final class Walk {

        private final ClassLoader loader;
        private final String rootPackage;
        private final MessageDigest digest;
        private final Set<String> visited = new HashSet<>();
        private final Deque<BytecodeModel.MethodRef> queue = new ArrayDeque<>();

        Walk(Class<?> root) {
            this.loader = root.getClassLoader();
            this.rootPackage = packageOf(Type.getInternalName(root));
            try {
                this.digest = MessageDigest.getInstance("SHA-256");
            }
            catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
            }
        }

        void update(String text) {
            for (Map.Entry<String, String> renamed : RENAMED_API_TYPES.entrySet()) {
                text = text.replace(renamed.getKey(), renamed.getValue());
            }
            digest.update(text.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
        }

        /** Adds the method and, transitively, what it runs; {@code named} includes its name in the digest. */
        void follow(BytecodeModel.MethodRef start, boolean named) {
            queue.add(start);
            boolean first = true;
            while (!queue.isEmpty()) {
                BytecodeModel.MethodRef ref = queue.poll();
                if (!visited.add(ref.owner() + "." + ref.key())) {
                    continue;
                }
                Class<?> owner = load(ref.owner());
                if (owner == null) {
                    continue;
                }
                BytecodeModel model = MODELS.get(owner);
                BytecodeModel.MethodCode code = model.methods().get(ref.key());
                if (code == null) {
                    continue; // inherited from elsewhere, or abstract: nothing of its own to digest
                }
                update(first && !named ? "code" : "code " + ref.owner() + "." + ref.key());
                first = false;
                update(code.instructions());
                if (code.usesOwnStatics()) {
                    for (Map.Entry<String, String> constant : model.constantFields().entrySet()) {
                        if (visited.add(ref.owner() + ":" + constant.getKey())) {
                            update("constant " + ref.owner() + "." + constant.getKey() + "=" + constant.getValue());
                        }
                    }
                    queue.add(new BytecodeModel.MethodRef(ref.owner(), "<clinit>", "()V"));
                }
                for (BytecodeModel.MethodRef call : code.calls()) {
                    if (packageOf(call.owner()).equals(rootPackage)) {
                        queue.add(call);
                    }
                }
            }
        }

        private Class<?> load(String internalName) {
            try {
                return Class.forName(internalName.replace('/', '.'), false, loader);
            }
            catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
        }

        String finish() {
            return HexFormat.of().formatHex(digest.digest()).substring(0, LENGTH);
        }

        private static String packageOf(String internalName) {
            int slash = internalName.lastIndexOf('/');
            return slash < 0 ? "" : internalName.substring(0, slash);
        }
    }
}
