#!/usr/bin/env bash
# Both cores of one machine on one large eval, on the streaming benchmark's dataset (100,000 recorded outputs) through
# the console launcher; best of ROUNDS each:
#   1. one exact_match scorer (cheap): one JVM, then two shards (arena.shard=1/2 and 2/2) in two JVMs at once followed
#      by MergeShards; the merged leaderboard must equal the single run's (the script checks its accuracy line);
#   2. a CPU-bound scorer (CpuScoringBenchmarkFixture, about half a millisecond a case) on CPU_LINES cases: the call
#      pool, which scores, on one thread (arena.concurrency=1), then on the default eight.
# Each JVM's CPU time is printed beside its wall time: on a machine shared with other work, cores used (CPU / wall)
# say more than the wall alone.
#
#   bench/cores.sh                          # 100,000 cases, summary mode, 3 rounds
#   LINES=20000 ROUNDS=1 bench/cores.sh     # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-100000}
CPU_LINES=${CPU_LINES:-20000}
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
cpu_data=$PWD/$WORK/cpu-data
rm -rf "$cpu_data"
java -cp "$CP" dev.agentarena.junit.engine.bench.StreamingBenchmark "$CPU_LINES" "$cpu_data" generate

launch() { # <output dir> <fixture> [shard] [concurrency] [data]: runs, and writes "wall user sys" beside
    local extra=() shard=${3:-} part
    part=${shard//\//-}
    [ -n "$shard" ] && extra+=(--config "arena.shard=$shard")
    [ -n "${4:-}" ] && extra+=(--config "arena.concurrency=$4")
    /usr/bin/time -f "%e %U %S" -o "$1.$part.time" java $JVM -jar "$CONSOLE" execute --disable-banner \
        --details=none --class-path "$APP_CP" --select-class "$2" --include-engine agent-arena \
        --config arena.nodes="$NODES" --config arena.project.root="${5:-$data}" --config arena.output.dir="$1" \
        "${extra[@]}" > "$1.$part.log" 2>&1 || true
}
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
cpu() { cat "$1".*.time | awk '{ c += $2 + $3 } END { printf "%.1f", c }'; }
CPU_FIXTURE=dev.agentarena.junit.engine.fixtures.CpuScoringBenchmarkFixture

for round in $(seq "$ROUNDS"); do
    out=$PWD/$WORK/run
    rm -rf "$out"; mkdir -p "$out"
    # 1. cheap scoring (exact_match): one JVM, then two shards at once and the merge
    start=$(now); launch "$out/one" "$FIXTURE"; t1=$(seconds "$start" "$(now)")
    start=$(now)
    launch "$out/two" "$FIXTURE" 1/2 & launch "$out/two" "$FIXTURE" 2/2 & wait
    t2=$(seconds "$start" "$(now)")
    start=$(now)
    java -cp "$CP" dev.agentarena.junit.engine.reporting.merge.MergeShards --output "$out/two/merged" "$out/two" \
        > "$out/merge.log" 2>&1 || { cat "$out/merge.log"; exit 1; }
    tm=$(seconds "$start" "$(now)")
    # 2. CPU-bound scoring: the call pool on one thread, then on the default eight
    start=$(now); launch "$out/serial" "$CPU_FIXTURE" "" 1 "$cpu_data"; t3=$(seconds "$start" "$(now)")
    start=$(now); launch "$out/parallel" "$CPU_FIXTURE" "" "" "$cpu_data"; t4=$(seconds "$start" "$(now)")
    echo "round $round (load $(cut -d' ' -f1 /proc/loadavg)):" \
        "exact_match one JVM ${t1}s (cpu $(cpu "$out/one")s), two shards at once ${t2}s (cpu $(cpu "$out/two")s)" \
        "+ merge ${tm}s; edit_similarity on $CPU_LINES: concurrency=1 ${t3}s (cpu $(cpu "$out/serial")s)," \
        "concurrency=8 ${t4}s (cpu $(cpu "$out/parallel")s)"
done
accuracy() { grep -m1 -A3 '"accuracy"' "$1" | tr -d ' \n'; }
if [ "$(accuracy "$out/one/leaderboard.json")" != "$(accuracy "$out/two/merged/leaderboard.json")" ]; then
    echo "the merged leaderboard differs from the single run's" >&2
    exit 1
fi
