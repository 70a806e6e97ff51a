#!/usr/bin/env bash
# The engine against a hand-written loop (HandWrittenLoop: read each row with Jackson, score exact_match, write the
# results line, compute the mean) on the same recorded file of LINES cases, in the same JVM and the same run, and
# prints: lines, engine s, loop s, ratio (engine/loop).
#
#   bench/versus-loop.sh                                  # 1,000,000 lines, summary mode, Launcher API, 3 rounds
#   LINES=200000 ROUNDS=1 bench/versus-loop.sh            # smaller and once
#   LAUNCHER=surefire bench/versus-loop.sh                # in Surefire's fork: the times Surefire reports per class
#   LAUNCHER=surefire FORKS=9 bench/versus-loop.sh        # nine forks, one line each, then the medians
#   LAUNCHER=surefire FORKS=10 BASE=eafe340 bench/versus-loop.sh  # a fork of eafe340 before each, then both medians
#
# LAUNCHER api runs VersusLoop: the loop once to warm up, then ROUNDS times the engine and the loop, alternately, and
# the best of each. LAUNCHER surefire runs StreamingBenchmarkFixture (the engine) and HandWrittenLoopBench (the loop,
# twice, the second timed) in one `mvn test` fork and reads each class's time from Surefire's XML report, as the
# issue's "the test class alone" does (Maven's own start-up is not in it). NODES: summary (default) or all. HEAP: -Xmx.
# One fork's ratio is not a measure: the same code's engine class moved between 9.6 and 12.7 s and the loop's pass
# between 4.2 and 5.8 s from fork to fork on an idle machine (docs/benchmarks.md), so FORKS (default 1) runs that many
# forks and ends with the median engine class, the median loop pass and the median of the forks' ratios. BASE (a git
# revision) runs a fork of that revision, in a worktree of its own, before each fork of this checkout, and ends with
# the medians of both and in how many pairs this checkout's class was the slower.
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-1000000}
ROUNDS=${ROUNDS:-3}
NODES=${NODES:-summary}
HEAP=${HEAP:-256m}
LAUNCHER=${LAUNCHER:-api}
WORK=${WORK:-arena-junit-engine/target/arena-bench}
JVM="-Xmx$HEAP -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError"
mkdir -p "$WORK"
source bench/lib.sh
dir=$PWD/$WORK/versus-$LINES
rm -rf "$dir"
mkdir -p "$dir"
case $LAUNCHER in
    api)
        java $JVM -Darena.nodes="$NODES" -cp "$CP" dev.agentarena.junit.engine.bench.VersusLoop "$LINES" "$dir" \
            "$ROUNDS" | grep -E '^(warm-up|round=|lines=)'
        ;;
    surefire)
        java -cp "$CP" dev.agentarena.junit.engine.bench.StreamingBenchmark "$LINES" "$dir" generate
        # one fork of the checkout at $1 (its reactor builds what it needs), labelled $2: a line, and a row of forks-$2.tsv
        fork_of() {
            local root=$1 label=$2 reports=$1/arena-junit-engine/target/surefire-reports
            time_of() { sed -n 's/.*<testsuite [^>]*time="\([0-9.,]*\)".*/\1/p' "$reports"/TEST-*"$1".xml | tr -d , | head -1; }
            rm -f "$reports"/TEST-*StreamingBenchmarkFixture.xml "$reports"/TEST-*HandWrittenLoopBench.xml
            (cd "$root" && $MVN -q -o -pl arena-junit-engine -am test -Dtest='StreamingBenchmarkFixture,HandWrittenLoopBench' \
                -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true \
                -DargLine="$JVM -Darena.bench.loop=true -Darena.nodes=$NODES -Darena.project.root=$dir \
                    -Darena.output.dir=$dir/out") > "$dir/surefire.log" 2>&1 || true
            local engine loop_pass loop_class
            engine=$(time_of StreamingBenchmarkFixture)
            loop_pass=$(sed -n 's/^loop cases=.* seconds=\([0-9.]*\)$/\1/p' "$dir/surefire.log" | tail -1)
            loop_class=$(time_of HandWrittenLoopBench)
            awk -v n="$LINES" -v e="$engine" -v l="$loop_pass" -v c="$loop_class" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
                -v label="$label" \
                'BEGIN { printf "%slauncher=surefire lines=%d nodes='"$NODES"' engine_class=%.2fs loop=%.2fs ratio=%.2f (loop class, two passes: %.2fs) load=%s\n", label == "head" ? "" : label " ", n, e, l, (l > 0 ? e / l : 0), c, load }'
            printf '%s\t%s\n' "${engine:-0}" "${loop_pass:-0}" >> "$dir/forks-$label.tsv"
        }
        # medians of the engine class, the loop pass and the per-fork ratio
        medians() {
            awk -F'\t' -v label="$1" 'function median(a, k,   i, j, t) { for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
                $1 > 0 && $2 > 0 { k++; e[k] = $1; l[k] = $2; r[k] = $1 / $2 }
                END { me = median(e, k); ml = median(l, k); mr = median(r, k)
                    printf "%sforks=%d median engine_class=%.2fs loop=%.2fs ratio=%.2f (ratios %.2f-%.2f)\n", label == "head" ? "" : label " ", k, me, ml, mr, r[1], r[k] }' "$dir/forks-$1.tsv"
        }
        rm -f "$dir"/forks-*.tsv
        if [ -n "${BASE:-}" ]; then
            # the revision in a worktree of its own, a fork of it before each fork of this checkout: "before and after
            # in the same hour", as one hour's load moves a class's time by a fifth
            base_dir=$PWD/$WORK/base-worktree
            git worktree remove --force "$base_dir" 2>/dev/null || rm -rf "$base_dir"
            git worktree add -q --detach "$base_dir" "$BASE"
            trap 'git worktree remove --force "$base_dir" 2>/dev/null' EXIT
        fi
        for fork in $(seq "${FORKS:-1}"); do
            if [ -n "${BASE:-}" ]; then
                fork_of "$base_dir" base
            fi
            fork_of "$PWD" head
        done
        if [ -n "${BASE:-}" ]; then
            medians base
            medians head
            # pairs: each fork of this checkout against the base's fork just before it
            paste "$dir/forks-base.tsv" "$dir/forks-head.tsv" | awk -F'\t' '$1 > 0 && $3 > 0 { n++; if ($3 > $1) slower++ }
                END { printf "head slower than base in %d of %d pairs\n", slower, n }'
        elif [ "${FORKS:-1}" -gt 1 ]; then
            medians head
        fi
        ;;
    *)
        echo "LAUNCHER must be api or surefire" >&2
        exit 2
        ;;
esac
