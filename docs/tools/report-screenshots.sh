#!/usr/bin/env bash
# Screenshots of the results report (report.html) for docs/guides/report.md, taken in the headless Chromium of the
# browser tests (docs/architecture/tests.md#browser-tests): the page as it opens, the failed cases, what changed since
# the committed baseline, one case opened, the comparison with the previous run ReportBrowserIT makes
# (samples/target/arena-compare/report.html: the regressed case opened with its word diff), an agent's case as a
# transcript (samples/integrations/target/arena/report.html, support-agent) and a conversation's case
# (support-conversations, same report), and the trend view of the report HistoryIT writes after three runs with a run
# history (samples/target/history-runs/arena/report.html), each when its report exists.
#
#   mvn -B verify -pl samples,samples/integrations -am   # the samples' runs: samples/target/arena/report.html,
#                                                        # ReportBrowserIT's samples/target/arena-compare/report.html,
#                                                        # samples/integrations/target/arena/report.html
#   docs/tools/report-screenshots.sh [report.html] [output-dir] [eval]  # default: the samples' report, docs/images,
#                                                                       # support-triage
#
# Nothing is installed into the local Maven repository: the engine's classes and test classes of this checkout are run
# directly. MVN overrides the Maven command (MVN="mvn -o" offline). Needs /usr/bin/chromium and /usr/bin/chromedriver
# (Debian: apt-get install chromium chromium-driver), or ARENA_CHROMIUM and ARENA_CHROMEDRIVER pointing at them.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
REPORT=$(realpath -m "${1:-samples/target/arena/report.html}")
OUT=$(realpath -m "${2:-docs/images}")
COMPARED=$(realpath -m "$(dirname "$REPORT")/../arena-compare/report.html")
AGENT=$(realpath -m samples/integrations/target/arena/report.html)
TRENDS=$(realpath -m samples/target/history-runs/arena/report.html)
MVN=${MVN:-mvn}
[ -f "$REPORT" ] || { echo "no report at $REPORT: run mvn -B verify -pl samples,samples/integrations -am" >&2; exit 1; }
# one reactor, so that the engine's class path names this checkout's annotations module, not an installed one
$MVN -B -q -pl arena-junit-annotations,arena-junit-engine test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/screenshots-cp.txt
CP="arena-junit-engine/target/test-classes:arena-junit-engine/target/classes:arena-junit-annotations/target/classes"
CP="$CP:$(cat arena-junit-engine/target/screenshots-cp.txt)"
ARGS=("$REPORT" "$OUT" "${3:-support-triage}")
[ -f "$COMPARED" ] && ARGS+=(--compared "$COMPARED")
[ -f "$AGENT" ] && ARGS+=(--agent "$AGENT" support-agent --conversation "$AGENT" support-conversations)
[ -f "$TRENDS" ] && ARGS+=(--trends "$TRENDS")
ARENA_BROWSER_REQUIRED=true java -cp "$CP" -Darena.screenshots.root="$ROOT/samples" \
  dev.agentarena.junit.engine.browser.ReportScreenshots "${ARGS[@]}"
