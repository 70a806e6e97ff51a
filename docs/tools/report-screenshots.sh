#!/usr/bin/env bash
# Screenshots of the results report (report.html) for docs/guides/report.md, taken in the headless Chromium of the
# browser tests (docs/architecture/tests.md#browser-tests): the page as it opens, the failed cases, what changed since
# the committed baseline, and one case opened.
#
#   mvn -B -q install -DskipTests && mvn -B -f samples/pom.xml test    # writes samples/target/arena/report.html
#   docs/tools/report-screenshots.sh [report.html] [output-dir] [eval]  # default: the samples' report, docs/images,
#                                                                       # support-triage
#
# Needs /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver), or
# ARENA_CHROMIUM and ARENA_CHROMEDRIVER pointing at them.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPORT=$(realpath -m "${1:-samples/target/arena/report.html}")
OUT=$(realpath -m "${2:-docs/images}")
[ -f "$REPORT" ] || { echo "no report at $REPORT: run mvn -B -f samples/pom.xml test" >&2; exit 1; }
ARENA_BROWSER_REQUIRED=true mvn -B -q -pl arena-junit-engine test-compile exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=dev.agentarena.junit.engine.browser.ReportScreenshots -Dexec.args="'$REPORT' '$OUT' ${3:-support-triage}"
