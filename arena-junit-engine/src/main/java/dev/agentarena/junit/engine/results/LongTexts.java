package dev.agentarena.junit.engine.results;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import org.apiguardian.api.API;

/**
 * Reasons and error messages longer than the run's limit ({@code arena.output.text-limit}): they are cut in
 * {@code results.jsonl}, test names and failures, report entries and the console, and kept whole in a file beside the
 * results, under {@value #DIRECTORY}, which the cut text names. A 20 MB reason would otherwise be written whole into
 * every output (twice into Surefire's XML).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LongTexts {

    /** The directory below the output directory that holds the whole texts. */
    public static final String DIRECTORY = "texts";

    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");

    private LongTexts() {
    }

    /** Whether a name is safe as it is: of {@code A-Za-z0-9._-} only, not starting with a dot, at most 80 long. */
    private static boolean plain(String name) {
        if (name.isEmpty() || name.length() > 80 || name.charAt(0) == '.') {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** Whether a text is over the limit (0 means no limit). */
    public static boolean isLong(String text, int limit) {
        return limit > 0 && text != null && text.length() > limit;
    }

    /**
     * A case's input (the prompt as sent) or reference as a results line holds it, for {@code report.html}: none when
     * empty, else cut at the limit (0 means none; not inside a surrogate pair), saying so. The whole prompt is in
     * Allure's attachment.
     */
    public static String caseText(String text, int limit) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (limit > 0 && text.length() > limit) {
            int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
            return text.substring(0, end) + String.format(Locale.ROOT, "… [cut at %,d of %,d characters]", end,
                    text.length());
        }
        return text;
    }

    /**
     * The text cut to the limit, ending with how much was cut and where the whole text is.
     *
     * @param file where the whole text is written, relative to the output directory
     */
    public static String cut(String text, int limit, String file) {
        int end = limit;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + String.format(Locale.ROOT,
                "… [cut at %,d of %,d characters; the whole text is in %s]", end, text.length(), file);
    }

    /**
     * Where the whole text of one result's reason or error goes, relative to the output directory:
     * {@code texts/<eval>/<model>/<dataset>/<case>/<scorer>[.r<repeat>].<what>.txt}, names made safe for file systems.
     */
    public static String file(String eval, String model, String dataset, String caseId, String scorer, int repeat,
            String what) {
        return DIRECTORY + "/" + safe(eval) + "/" + safe(model) + "/" + safe(dataset) + "/" + safe(caseId) + "/"
                + safe(scorer) + (repeat == 0 ? "" : ".r" + repeat) + "." + what + ".txt";
    }

    /**
     * Where a whole text of one case (not of one of its scorers) goes, relative to the output directory:
     * {@code texts/<eval>/<model>/<dataset>/<case>/[r<repeat>.]<name>}.
     */
    public static String caseFile(String eval, String model, String dataset, String caseId, int repeat, String name) {
        return DIRECTORY + "/" + safe(eval) + "/" + safe(model) + "/" + safe(dataset) + "/" + safe(caseId) + "/"
                + (repeat == 0 ? "" : "r" + repeat + ".") + name;
    }

    /**
     * Unsafe characters become {@code _}; when that changed anything, a short hash keeps {@code a/b} and {@code a:b}
     * apart.
     */
    private static String safe(String name) {
        if (plain(name)) {
            // nothing to replace (the common case, asked for every case): the name itself
            return name;
        }
        String safe = UNSAFE.matcher(name).replaceAll("_");
        if (safe.startsWith(".")) {
            safe = "_" + safe.substring(1);
        }
        if (safe.length() > 80) {
            safe = safe.substring(0, 80);
        }
        if (safe.equals(name)) {
            return safe;
        }
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        return safe + "-" + String.format(Locale.ROOT, "%08x", crc.getValue());
    }
}
