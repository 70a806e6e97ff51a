package dev.agentarena.junit.engine.scoring;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Scorer versions: digests of scorer code, and registry names. */
public final class ScorerVersions {

    private ScorerVersions() {
    }

    /** A digest of the class file that declares the method. */
    public static String of(Method method) {
        return digest(classBytes(method.getDeclaringClass()), method.toGenericString());
    }

    /** A digest of the scorer class's class file. */
    public static String of(Class<?> scorerClass) {
        return digest(classBytes(scorerClass), scorerClass.getName());
    }

    /** {@code <eval-name>-<scorer-name>}, lowercased, with {@code _} turned into {@code -}. */
    public static String registryName(String evalName, String scorerName) {
        return (evalName + "-" + scorerName).toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static byte[] classBytes(Class<?> type) {
        String resource = type.getName().replace('.', '/') + ".class";
        ClassLoader loader = type.getClassLoader() == null ? ClassLoader.getSystemClassLoader() : type.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(resource)) {
            return in == null ? new byte[0] : in.readAllBytes();
        }
        catch (IOException e) {
            return new byte[0];
        }
    }

    private static String digest(byte[] bytes, String salt) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(bytes);
            sha.update(salt.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
