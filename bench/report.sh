#!/usr/bin/env bash
# The case report's own cost: CaseReport.write (report.html from results.jsonl) against reading the same file line by
# line into Jackson trees, in one JVM (ReportBenchmark: a warm-up round, then ROUNDS rounds; the first, cold round is
# the one a run pays, since the report is written once at its end).
#
#   bench/report.sh                                   # 30,000 lines like the peer benchmark's (10,000 cases x 3 scorers)
#   RESULTS=/path/to/results.jsonl bench/report.sh    # a run's own results file
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-30000}
ROUNDS=${ROUNDS:-3}
WORK=${WORK:-arena-junit-engine/target/arena-bench}
mkdir -p "$WORK"
source bench/lib.sh
java -Xmx256m -cp "$CP" dev.agentarena.junit.engine.bench.ReportBenchmark "$LINES" "$ROUNDS" ${RESULTS:+"$RESULTS"}
