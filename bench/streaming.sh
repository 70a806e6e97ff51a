#!/usr/bin/env bash
# Streaming benchmark: generates JSON Lines datasets (recorded outputs, so no model latency), runs each through the
# engine with the Launcher API in a fresh JVM, and prints wall time, peak heap in use, peak live heap after a
# collection, and live heap when the plan has run; then the largest/smallest ratios.
#
#   bench/streaming.sh                                   # 10k baseline, then 1M, with -Xmx3g
#   HEAP=512m LINES="10000 200000" bench/streaming.sh    # the largest run that fits in 512 MB
#
# The engine streams rows and releases each case's output once reported, but every case and scorer stays a node of
# the launcher's TestPlan until the run ends: about 1.9 KB per case with one scorer. So memory grows with the number
# of cases (a million needs about 2 GB), not with their size.
#
# Needs only the reactor build (no install): it compiles the engine's test tree and runs from target/.
set -euo pipefail
cd "$(dirname "$0")/.."
HEAP=${HEAP:-3g}
LINES=${LINES:-"10000 1000000"}
WORK=${WORK:-arena-junit-engine/target/arena-bench}

mvn -q -pl arena-junit-engine -am test-compile
mvn -q -pl arena-junit-engine dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/$WORK.classpath" >/dev/null
# The reactor's own modules come from target/, never from a (possibly stale) local repository.
DEPS=$(tr ':' '\n' < "$WORK.classpath" | grep -v '/dev/agentarena/' | paste -sd: -)
CP="arena-junit-annotations/target/classes:arena-junit-engine/target/classes:arena-junit-engine/target/test-classes:$DEPS"

results=()
for n in $LINES; do
    rm -rf "$WORK/$n"
    if out=$(java -Xmx"$HEAP" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -cp "$CP" \
            dev.agentarena.junit.engine.bench.StreamingBenchmark "$n" "$WORK/$n" | grep '^lines='); then
        line=$out
    else
        line="lines=$n OUT_OF_MEMORY with -Xmx$HEAP"
    fi
    echo "$line"
    results+=("$line")
    rm -rf "$WORK/$n"
done

if [ "${#results[@]}" -ge 2 ]; then
    field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"; }
    first=${results[0]}; last=${results[${#results[@]}-1]}
    for f in wall peak_heap_used peak_live_after_gc live_at_end; do
        awk -v a="$(field $f "$first")" -v b="$(field $f "$last")" -v f=$f \
            'BEGIN { printf "%s ratio (largest/smallest): %.1f\n", f, (a > 0 ? b / a : 0) }'
    done
fi
