#!/usr/bin/env bash
# The engine against the same work written by hand as a JUnit Jupiter @TestFactory, through the JUnit console
# launcher and through `mvn test`, interleaved run by run so that both see the same machine, every run checked.
#
# The work: N ticket-routing cases, one call per case to a deterministic mock model that sees only the rendered
# prompt, three checks per output (exact label, case-insensitive contains, bare-label format). The same work and
# dataset as the peer benchmark against promptfoo. See docs/benchmarks.md.
#
#   bench/versus-jupiter/run.sh                   # warm-up, then the phases start-up 10k lat50 big
#   bench/versus-jupiter/run.sh 10k lat50         # selected phases (the warm-up round always runs first)
#   REPS=5 bench/versus-jupiter/run.sh 10k        # more rounds
#
# Phases: start-up (10 cases), 10k (10,000 cases), lat50 (1,000 cases, 50 ms per call, concurrency 32), big (100,000
# cases, REPS_BIG rounds), heap (the engine's peak live heap after a collection, for the docs' sizing table).
# Env: REPS (3), REPS_BIG (1), TIMEOUT_S (900), MVN_ARGS (added to every mvn command, e.g. "-o" or
# "-Dmaven.repo.local=..."), SKIP_INSTALL=1 (keep the engine already in the local repository),
# PROMPTFOO_CASES_PER_S (promptfoo's throughput at 100,000 cases from the peer benchmark, for the ratio).
# Raw rows: bench/versus-jupiter/target/runs-STAMP.tsv; the table and the targets are printed at the end.
set -uo pipefail
cd "$(dirname "$0")"
HERE=$PWD
ROOT=$(cd ../.. && pwd)

# A process session of our own, with more CPU weight than other sessions' where the kernel lets us (autogroup):
# on a shared machine, other builds otherwise take an equal share whatever their nice.
if [[ -z ${VERSUS_JUPITER_SETSID:-} ]]; then
  export VERSUS_JUPITER_SETSID=1
  exec setsid --wait "$HERE/$(basename "$0")" "$@"
fi
echo -10 >/proc/self/autogroup 2>/dev/null || true

REPS=${REPS:-3}
REPS_BIG=${REPS_BIG:-1}
TIMEOUT_S=${TIMEOUT_S:-900}
read -r -a MVN <<<"mvn -B ${MVN_ARGS:-}"
JAR=target/console/junit-platform-console-standalone-1.14.4.jar
DATA=engine/target/data
log() { printf '# %s\n' "$*" >&2; }
command -v /usr/bin/time >/dev/null || { log "needs GNU time (/usr/bin/time; Debian package 'time')"; exit 1; }
cmp -s engine/src/test/java/dev/agentarena/bench/routing/MockModel.java \
  jupiter/src/test/java/dev/agentarena/bench/routing/MockModel.java || { log "the MockModel copies differ"; exit 1; }

# ---- set-up, untimed ---------------------------------------------------------------------------------------------
mkdir -p target/logs "$DATA"
if [[ -z ${SKIP_INSTALL:-} ]]; then
  log "installing this checkout's engine into the local repository"
  (cd "$ROOT" && "${MVN[@]}" -q install -DskipTests -pl arena-junit-annotations,arena-junit-engine -am) >&2 || exit 1
fi
(cd engine && "${MVN[@]}" -q test-compile dependency:build-classpath -Dmdep.outputFile="$HERE/target/cp-engine.txt" \
  -Dmdep.includeScope=test) >&2 || exit 1
(cd jupiter && "${MVN[@]}" -q test-compile dependency:build-classpath \
  -Dmdep.outputFile="$HERE/target/cp-jupiter.txt" -Dmdep.includeScope=test) >&2 || exit 1
[[ -f $JAR ]] || (cd engine && "${MVN[@]}" -q dependency:copy \
  -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.4 -DoutputDirectory="$HERE/target/console") \
  >&2 || exit 1
javac -d target/tools -cp "$(cat target/cp-engine.txt)" tools/*.java \
  engine/src/test/java/dev/agentarena/bench/routing/MockModel.java || exit 1
TOOLS="target/tools:$(cat target/cp-engine.txt)"
for n in 10 1000 10000 100000; do
  [[ -s $DATA/cases-$n.jsonl ]] || java -cp "$TOOLS" GenerateCases "$DATA" "$n" >&2 || exit 1
done
CP_ENGINE="$(cat target/cp-engine.txt):$HERE/engine/target/test-classes"
CP_JUPITER="$(cat target/cp-jupiter.txt):$HERE/jupiter/target/test-classes"

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RAW=target/runs-$STAMP.tsv
printf 'system\tN\tlatency_ms\tconcurrency\trep\twall_s\tuser_s\tsys_s\tpeak_rss_kb\texit\tcheck\tloadavg1\n' >"$RAW"

# run_one SYSTEM N LATENCY CONCURRENCY REP: one timed run, then its check (untimed)
run_one() {
  local sys=$1 n=$2 lat=$3 conc=$4 rep=$5
  local out=$HERE/target/logs/last.log times=$HERE/target/logs/last.time dir=$HERE/engine cmd=()
  local jupiter_parallel=(junit.jupiter.execution.parallel.enabled=true junit.jupiter.execution.parallel.mode.default=concurrent
    junit.jupiter.execution.parallel.config.strategy=fixed "junit.jupiter.execution.parallel.config.fixed.parallelism=$conc")
  ln -sfn "cases-$n.jsonl" "$DATA/cases.jsonl"
  rm -rf engine/target/arena engine/target/surefire-reports jupiter/target/surefire-reports
  case $sys in
    engine-console)
      cmd=(java -jar "$HERE/$JAR" execute --disable-banner --details=none -cp "$CP_ENGINE"
        --select-class dev.agentarena.bench.routing.RoutingEvalTest)
      [[ $conc != default ]] && cmd+=(--config "arena.concurrency=$conc") ;;
    jupiter-console)
      cmd=(java "-Dbench.cases=$HERE/$DATA/cases.jsonl" -jar "$HERE/$JAR" execute --disable-banner --details=none
        -cp "$CP_JUPITER" --select-class dev.agentarena.bench.routing.RoutingFactoryTest)
      if [[ $conc != default ]]; then for p in "${jupiter_parallel[@]}"; do cmd+=(--config "$p"); done; fi ;;
    engine-mvn)
      cmd=("${MVN[@]}" -o test)
      [[ $conc != default ]] && cmd+=("-Darena.concurrency=$conc") ;;
    jupiter-mvn)
      dir=$HERE/jupiter
      cmd=("${MVN[@]}" -o test "-Dbench.cases=$HERE/$DATA/cases.jsonl")
      if [[ $conc != default ]]; then for p in "${jupiter_parallel[@]}"; do cmd+=("-D$p"); done; fi ;;
    *) log "unknown system $sys"; return 2 ;;
  esac
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  (cd "$dir" && MOCK_LATENCY_MS=$lat /usr/bin/time -f '%e %U %S %M %x' -o "$times" timeout -k 10 "$TIMEOUT_S" \
    "${cmd[@]}" >"$out" 2>&1)
  local wall user system rss code check
  read -r wall user system rss code < <(tail -1 "$times")
  if [[ ${code:-} == 124 || ${code:-} == 137 ]]; then check=timeout
  elif [[ $sys == engine-* ]]; then
    if [[ -s engine/target/arena/results.jsonl ]]; then
      check=$(java -cp "$TOOLS" CheckRun engine engine/target/arena/results.jsonl "$out" "$DATA/expected-$n.properties" | head -1)
    else check="no-results(exit=$code)"; fi
  else
    check=$(java -cp "$TOOLS" CheckRun jupiter "$out" "$DATA/expected-$n.properties" | head -1)
  fi
  [[ $check == ok ]] || cp "$out" "target/logs/failed-$sys-$n-$lat-$rep-$STAMP.log"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$sys" "$n" "$lat" "$conc" "$rep" "$wall" "$user" "$system" \
    "$rss" "$code" "$check" "$load" >>"$RAW"
  log "$sys N=$n latency=$lat concurrency=$conc rep=$rep: wall ${wall}s cpu $(awk -v u="$user" -v s="$system" \
    'BEGIN { print u + s }')s rss $((rss / 1024))MiB $check (load $load)"
}

# round N LATENCY CONCURRENCY REP SYSTEM...: one run of each system, in this order
round() {
  local n=$1 lat=$2 conc=$3 rep=$4 s; shift 4
  for s in "$@"; do run_one "$s" "$n" "$lat" "$conc" "$rep"; done
}

ALL=(engine-console jupiter-console engine-mvn jupiter-mvn)
phase() {
  local r
  case $1 in
    warmup) round 1000 0 default warmup "${ALL[@]}" ;;
    start-up) for ((r = 1; r <= REPS; r++)); do round 10 0 default "$r" "${ALL[@]}"; done ;;
    10k) for ((r = 1; r <= REPS; r++)); do round 10000 0 default "$r" "${ALL[@]}"; done ;;
    lat50) for ((r = 1; r <= REPS; r++)); do round 1000 50 32 "$r" "${ALL[@]}"; done ;;
    big) for ((r = 1; r <= REPS_BIG; r++)); do round 100000 0 default "$r" "${ALL[@]}"; done ;;
    heap) heap 10000; heap 100000 ;;
    *) log "unknown phase $1"; return 2 ;;
  esac
}

# heap N: the engine's largest live heap after a collection (G1, default flags) through the console launcher
heap() {
  local n=$1 gc=$HERE/target/logs/gc-$1.log
  ln -sfn "cases-$n.jsonl" "$DATA/cases.jsonl"
  rm -rf engine/target/arena
  (cd engine && MOCK_LATENCY_MS=0 java "-Xlog:gc:file=$gc" -jar "$HERE/$JAR" execute --disable-banner --details=none \
    -cp "$CP_ENGINE" --select-class dev.agentarena.bench.routing.RoutingEvalTest >/dev/null 2>&1)
  awk -v n="$n" '/Pause/ && match($0, /->[0-9]+M/) { v = substr($0, RSTART + 2, RLENGTH - 3) + 0; if (v > max) max = v }
    END { printf "# heap: %d cases: largest heap after a collection %d MB\n", n, max }' "$gc" >&2
}

[[ $# -eq 0 ]] && set -- start-up 10k lat50 big
log "stamp $STAMP; $(nproc) cpus; $(java -version 2>&1 | head -1); $("${MVN[@]}" -v 2>/dev/null | head -1)"
phase warmup
for p in "$@"; do phase "$p"; done
log "raw runs: $HERE/$RAW"
java -cp "$TOOLS" Report "$RAW" ${PROMPTFOO_CASES_PER_S:-}
