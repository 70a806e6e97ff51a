#!/usr/bin/env bash
# Screenshots of the samples' Allure report for docs/guides/allure.md, taken with headless Chromium.
#
#   mvn -B -f samples/pom.xml test allure:report     # after `mvn -B -q install -DskipTests`
#   docs/tools/allure-screenshots.sh [output-dir]    # default docs/images
#
# The report loads its data with XHR, so it is served over http on 127.0.0.1 rather than opened as a file.
# allure-shot.html opens a report page in a same-origin frame and expands attachments and steps before the shot.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPORT=samples/target/site/allure-maven-plugin
OUT=${1:-docs/images}
PORT=${PORT:-8765}
CHROMIUM=${CHROMIUM:-chromium}
[ -f "$REPORT/index.html" ] || { echo "no report at $REPORT: run mvn -f samples/pom.xml test allure:report" >&2; exit 1; }
mkdir -p "$OUT"
cp docs/tools/allure-shot.html "$REPORT/arena-shot.html"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$REPORT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER"' EXIT
sleep 1

shot() {
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$(mktemp -d)" --hide-scrollbars \
    --run-all-compositor-stages-before-draw --virtual-time-budget=20000 --window-size=1400,1000 \
    --screenshot="$OUT/$1" "http://127.0.0.1:$PORT/$2" 2>/dev/null
  echo "$OUT/$1"
}

# Report routes for: a failing support-triage case, the first model error, and the test carrying the leaderboard.
read -r FAILING MODEL_ERROR LEADERBOARD < <(python3 - "$REPORT" <<'PY'
import json, os, sys
report = sys.argv[1]
def leaves(node, parents):
    for child in node.get('children', []):
        if 'children' in child:
            yield from leaves(child, parents + [child['uid']])
        else:
            yield child, parents
suites = json.load(open(os.path.join(report, 'data/suites.json')))
def route(kind, parents, uid):
    return '%s/%s/' % (kind, '/'.join(parents[-1:] + [uid]))
failing = next((route('suites', p, t['uid']) for t, p in leaves(suites, [])
                if t['status'] == 'failed' and '/classification' in t['name']), '-')
categories = json.load(open(os.path.join(report, 'data/categories.json')))
model_error = next((route('categories', p, t['uid']) for t, p in leaves(categories, [])
                    if t['status'] == 'broken'), '-')
leaderboard = '-'
for t, p in leaves(suites, []):
    case = json.load(open(os.path.join(report, 'data/test-cases', t['uid'] + '.json')))
    stages = [case.get('testStage', {})] + case.get('afterStages', [])
    for attachment in (a for s in stages for a in s.get('attachments', [])):
        if attachment['name'].startswith('leaderboard') and attachment['name'].endswith('.html'):
            leaderboard = route('suites', p, t['uid']) + '?attachment=' + attachment['uid']
print(failing, model_error, leaderboard)
PY
)

ALL='prompt%20(as%20sent),raw%20output,output%20(post-processed),reference,score%20(json)'
shot allure-overview.png 'index.html#'
shot allure-failing-case.png "arena-shot.html?page=$FAILING&steps=1"
shot allure-failing-case-attachments.png "arena-shot.html?page=$FAILING&open=$ALL&steps=1&scroll=560"
shot allure-categories.png "arena-shot.html?page=$MODEL_ERROR"
if [ "$LEADERBOARD" != "-" ]; then
  shot allure-leaderboard.png "arena-shot.html?page=$LEADERBOARD"
else
  echo "no leaderboard attachment in this report: no allure-leaderboard.png" >&2
fi
