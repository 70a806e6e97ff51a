#!/usr/bin/env bash
# Streaming benchmark: generates JSON Lines datasets (recorded outputs, so no model latency; one exact_match scorer,
# every tenth case wrong), runs each in a fresh JVM and prints wall time, peak heap in use, peak live heap after a
# collection, and live heap when the plan has run; then the largest/smallest ratios.
#
#   bench/streaming.sh                                            # 10k, then 1M lines; every test; Launcher API; -Xmx3g
#   HEAP=512m LINES="10000 200000" bench/streaming.sh             # the largest run with every test that fits 512 MB
#   NODES=summary HEAP=256m LAUNCHER=console bench/streaming.sh   # 10k, then 1M in summary mode, console launcher
#   NODES=summary HEAP=256m LAUNCHER=surefire bench/streaming.sh  # the same through Surefire's forked JVM
#
# LAUNCHER: api (the Launcher API in-process, StreamingBenchmark), console (junit-platform-console-standalone) or
# surefire (mvn test -Dtest=StreamingBenchmarkFixture, -Xmx in Surefire's argLine). NODES: all or summary
# (arena.nodes). With every test, memory grows with the number of cases (the launcher's TestPlan keeps a
# TestIdentifier per node, about 1.7 KB per case with one scorer); in summary mode it does not.
#
# Needs only the reactor build (no install): it compiles the engine's test tree and runs from target/.
set -euo pipefail
cd "$(dirname "$0")/.."
HEAP=${HEAP:-3g}
LINES=${LINES:-"10000 1000000"}
NODES=${NODES:-all}
LAUNCHER=${LAUNCHER:-api}
WORK=${WORK:-arena-junit-engine/target/arena-bench}
JVM="-Xmx$HEAP -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError"

mkdir -p "$WORK"
source bench/lib.sh

results=()
for n in $LINES; do
    dir=$PWD/$WORK/$n
    rm -rf "$dir"
    mkdir -p "$dir"
    report=$dir/heap.txt
    case $LAUNCHER in
        api)
            out=$(java $JVM -Darena.nodes="$NODES" -cp "$CP" dev.agentarena.junit.engine.bench.StreamingBenchmark \
                "$n" "$dir" | grep '^lines=' || true)
            ;;
        console)
            java -cp "$CP" dev.agentarena.junit.engine.bench.StreamingBenchmark "$n" "$dir" generate
            java $JVM -Darena.bench.heap-report="$report" -jar "$CONSOLE" execute --disable-banner \
                --details=summary --class-path "$APP_CP" --select-class "$FIXTURE" --include-engine agent-arena \
                --config arena.nodes="$NODES" --config arena.project.root="$dir" \
                --config arena.output.dir="$dir/out" > "$dir/console.log" 2>&1 || true
            out=$( [ -s "$report" ] && echo "lines=$n $(cat "$report")" || true)
            ;;
        surefire)
            java -cp "$CP" dev.agentarena.junit.engine.bench.StreamingBenchmark "$n" "$dir" generate
            $MVN -q -pl arena-junit-engine -am test -Dtest=StreamingBenchmarkFixture \
                -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true \
                -DargLine="$JVM -Darena.bench.heap-report=$report -Darena.nodes=$NODES \
                    -Darena.project.root=$dir -Darena.output.dir=$dir/out" > "$dir/surefire.log" 2>&1 || true
            out=$( [ -s "$report" ] && echo "lines=$n $(cat "$report")" || true)
            ;;
        *)
            echo "LAUNCHER must be api, console or surefire" >&2
            exit 2
            ;;
    esac
    line=${out:-"lines=$n OUT_OF_MEMORY (or failed) with -Xmx$HEAP; see $dir"}
    echo "launcher=$LAUNCHER nodes=$NODES $line"
    results+=("$line")
    if [ -z "${KEEP:-}" ]; then
        rm -rf "$dir/arena-bench.jsonl" "$dir/out"
    fi
done

if [ "${#results[@]}" -ge 2 ]; then
    field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"; }
    first=${results[0]}; last=${results[${#results[@]}-1]}
    for f in wall peak_heap_used peak_live_after_gc live_at_end; do
        awk -v a="$(field $f "$first")" -v b="$(field $f "$last")" -v f=$f \
            'BEGIN { printf "%s ratio (largest/smallest): %.1f\n", f, (a > 0 ? b / a : 0) }'
    done
fi
