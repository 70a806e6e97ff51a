package dev.agentarena.junit.engine.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * {@code arena.shard}: which shard a case belongs to is fixed by its id's UTF-8 bytes alone, so every JDK, machine,
 * locale and default charset agrees (the values below are pinned; CI runs them on JDK 17 and 25), and the shards split
 * a dataset evenly.
 */
class ShardTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "case-0000001   | 1 | 1 | 897",
        "case-0000002   | 2 | 1 | 493",
        "refund_request | 1 | 4 | 852",
        "é              | 3 | 4 | 1000",
        "日本語          | 2 | 4 | 328",
        "t01            | 3 | 4 | 852",
        "x#2            | 3 | 3 | 391"})
    void aCaseBelongsToTheSameShardEverywhere(String id, int ofThree, int ofFour, int ofThousand) {
        assertThat(Shard.of(id, 3)).isEqualTo(ofThree);
        assertThat(Shard.of(id, 4)).isEqualTo(ofFour);
        assertThat(Shard.of(id, 1000)).isEqualTo(ofThousand);
        assertThat(new Shard(ofThree, 3).includes(id)).isTrue();
        assertThat(new Shard(ofThree % 3 + 1, 3).includes(id)).isFalse();
    }

    @Test
    void theHashIsFnv1aOfTheUtf8BytesFinishedWithMurmursMix() {
        // FNV-1a 64 of the empty string is its offset basis; fmix64 of it, pinned
        assertThat(Shard.hash("")).isEqualTo(fmix64(0xcbf29ce484222325L));
        long fnv = 0xcbf29ce484222325L;
        for (byte b : new byte[] {(byte) 0xc3, (byte) 0xa9}) {
            fnv = (fnv ^ (b & 0xff)) * 0x100000001b3L;
        }
        assertThat(Shard.hash("é")).as("é is two UTF-8 bytes").isEqualTo(fmix64(fnv));
    }

    @Test
    void shardsSplitADatasetEvenly() {
        int[] counts = new int[4];
        for (int i = 1; i <= 100_000; i++) {
            counts[Shard.of(String.format("case-%07d", i), 4) - 1]++;
        }
        for (int count : counts) {
            assertThat(count).isBetween(24_500, 25_500);
        }
    }

    @Test
    void readsTheSettingAndItsDirectory() {
        Shard shard = Shard.from(configuration(" 2 / 3 ")).orElseThrow();
        assertThat(shard).isEqualTo(new Shard(2, 3));
        assertThat(shard.partial()).isTrue();
        assertThat(shard.toString()).isEqualTo("2/3");
        assertThat(shard.outputDirectory(java.nio.file.Path.of("target/arena")))
                .isEqualTo(java.nio.file.Path.of("target/arena/shard-2-of-3"));
        assertThat(Shard.from(configuration("1/1")).orElseThrow().partial()).isFalse();
        assertThat(Shard.from(configuration(null))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0/3", "4/3", "2", "a/b", "1/0", "-1/2", "1/2/3"})
    void anInvalidShardIsAnErrorNamingTheKeyAndTheForm(String value) {
        assertThatThrownBy(() -> Shard.from(configuration(value))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(Constants.SHARD + " must be i/n with 1 <= i <= n, such as 2/4, but was \""
                        + value.trim() + "\"");
    }

    private static ArenaConfiguration configuration(String shard) {
        Map<String, String> values = new HashMap<>();
        if (shard != null) {
            values.put(Constants.SHARD, shard);
        }
        return ArenaConfiguration.withoutFile(new ConfigurationParameters() {
            @Override
            public java.util.Optional<String> get(String key) {
                return java.util.Optional.ofNullable(values.get(key));
            }

            @Override
            public java.util.Optional<Boolean> getBoolean(String key) {
                return get(key).map(Boolean::parseBoolean);
            }

            @Override
            @Deprecated
            public int size() {
                return values.size();
            }

            @Override
            public java.util.Set<String> keySet() {
                return values.keySet();
            }
        });
    }

    private static long fmix64(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53ec34eL;
        h ^= h >>> 33;
        return h;
    }
}
