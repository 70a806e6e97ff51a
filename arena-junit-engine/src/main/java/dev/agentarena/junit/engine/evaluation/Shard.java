package dev.agentarena.junit.engine.evaluation;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;

/**
 * One part of every dataset ({@code arena.shard=i/n}): the cases whose id hashes to {@code i}, so that n machines (a
 * CI matrix) or n JVMs of one machine each run one part, and the parts are merged into one leaderboard afterwards.
 *
 * <p>A case belongs to shard {@code 1 + (h mod n)}, {@code h} read as an unsigned 64-bit number, where {@code h} is the
 * 64-bit FNV-1a hash of the case id's UTF-8 bytes, finished with MurmurHash3's 64-bit mix ({@code fmix64}). That
 * depends on nothing but the id's characters: not on the JDK, the platform's charset or locale, the dataset's order
 * or which other cases exist, so every machine agrees on it, and a case keeps its shard as a dataset grows. The id is
 * the case id as the results carry it (a repeated id's {@code x#2} included). Every model and repeat of a case runs in
 * the same shard, so per-case comparisons between models and repeats stay within one shard's results.
 *
 * @param index which part, from 1
 * @param count how many parts
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record Shard(int index, int count) {

    private static final Pattern FORMAT = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(\\d{1,9})\\s*");

    /** Checks the bounds. */
    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("a shard is i/n with 1 <= i <= n, but was " + index + "/" + count);
        }
    }

    /**
     * The configured shard, if {@code arena.shard} is set.
     *
     * @throws dev.agentarena.junit.engine.config.ConfigurationException when it is not {@code i/n} with
     *         {@code 1 <= i <= n}, naming the value and where it was set
     */
    public static Optional<Shard> from(ArenaConfiguration configuration) {
        Optional<String> value = configuration.get(Constants.SHARD).filter(text -> !text.isBlank());
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Matcher matcher = FORMAT.matcher(value.get());
        if (matcher.matches()) {
            int index = Integer.parseInt(matcher.group(1));
            int count = Integer.parseInt(matcher.group(2));
            if (count >= 1 && index >= 1 && index <= count) {
                return Optional.of(new Shard(index, count));
            }
        }
        throw configuration.invalid(Constants.SHARD, value.get(), "i/n with 1 <= i <= n, such as 2/4");
    }

    /** Reads {@code i/n}. */
    public static Shard parse(String text) {
        Matcher matcher = FORMAT.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("a shard is i/n with 1 <= i <= n, but was \"" + text + "\"");
        }
        return new Shard(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)));
    }

    /** Whether the case runs in this shard. */
    public boolean includes(String caseId) {
        return of(caseId, count) == index;
    }

    /** The shard, from 1, that a case belongs to when the datasets are split in {@code count} parts. */
    public static int of(String caseId, int count) {
        return (int) Long.remainderUnsigned(hash(caseId), count) + 1;
    }

    /** FNV-1a (64 bit) of the id's UTF-8 bytes, then MurmurHash3's {@code fmix64}, which spreads every bit. */
    static long hash(String caseId) {
        long h = 0xcbf29ce484222325L;
        for (byte b : caseId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53ec34eL;
        h ^= h >>> 33;
        return h;
    }

    /** Whether this is only part of the cases (n &gt; 1): its summaries would judge a partial run. */
    public boolean partial() {
        return count > 1;
    }

    /** Where this shard writes: {@code shard-<i>-of-<n>} below the output directory. */
    public Path outputDirectory(Path outputDirectory) {
        return outputDirectory.resolve("shard-" + index + "-of-" + count);
    }

    /** {@code i/n}. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
