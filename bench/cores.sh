#!/usr/bin/env bash
# Both cores of one machine on one large eval: the streaming benchmark's dataset (100,000 recorded outputs, one
# exact_match scorer) run through the console launcher as one JVM, then as two shards (arena.shard=1/2 and 2/2) in two
# JVMs at once followed by MergeShards; best of ROUNDS each, and the speed-up. The merged leaderboard must equal the
# single run's (durations aside): the script checks its accuracy line.
#
#   bench/cores.sh                          # 100,000 cases, summary mode, 3 rounds
#   LINES=20000 ROUNDS=1 bench/cores.sh     # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-100000}
NODES=${NODES:-summary}
ROUNDS=${ROUNDS:-3}
HEAP=${HEAP:-512m}
WORK=${WORK:-arena-junit-engine/target/arena-cores}
JVM="-Xmx$HEAP -XX:+UseG1GC"

mkdir -p "$WORK"
source bench/lib.sh

data=$PWD/$WORK/data
rm -rf "$data"
java -cp "$CP" dev.agentarena.junit.engine.bench.StreamingBenchmark "$LINES" "$data" generate

launch() { # <output dir> [shard]
    local shard=()
    [ -n "${2:-}" ] && shard=(--config "arena.shard=$2")
    java $JVM -jar "$CONSOLE" execute --disable-banner --details=none --class-path "$APP_CP" \
        --select-class "$FIXTURE" --include-engine agent-arena --config arena.nodes="$NODES" \
        --config arena.project.root="$data" --config arena.output.dir="$1" "${shard[@]}" > "$1.log" 2>&1 || true
}
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

best_one=""; best_two=""
for round in $(seq "$ROUNDS"); do
    one=$PWD/$WORK/one; two=$PWD/$WORK/two
    rm -rf "$one" "$two"
    start=$(now); launch "$one"; end=$(now)
    t1=$(seconds "$start" "$end")
    start=$(now)
    launch "$two" 1/2 & launch "$two" 2/2 & wait
    java -cp "$CP" dev.agentarena.junit.engine.reporting.merge.MergeShards --output "$two/merged" "$two" \
        > "$two.merge.log" 2>&1 || { cat "$two.merge.log"; exit 1; }
    end=$(now)
    t2=$(seconds "$start" "$end")
    echo "round $round: one JVM ${t1}s, two shards at once + merge ${t2}s"
    best_one=$(awk -v a="$t1" -v b="${best_one:-$t1}" 'BEGIN { print (a < b ? a : b) }')
    best_two=$(awk -v a="$t2" -v b="${best_two:-$t2}" 'BEGIN { print (a < b ? a : b) }')
done
accuracy() { grep -m1 -A3 '"accuracy"' "$1" | tr -d ' \n'; }
if [ "$(accuracy "$one/leaderboard.json")" != "$(accuracy "$two/merged/leaderboard.json")" ]; then
    echo "the merged leaderboard differs from the single run's" >&2
    exit 1
fi
echo "cases=$LINES nodes=$NODES cores=$(nproc) one_jvm=${best_one}s two_shards_merged=${best_two}s" \
    "speedup=$(awk -v a="$best_one" -v b="$best_two" 'BEGIN { printf "%.2f", a / b }')"
