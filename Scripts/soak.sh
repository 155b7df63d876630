#!/usr/bin/env bash
# Soak run: webparse on PAGES pages (default 1000) in one process, with the memory of its whole process tree
# over time and its growth after warm-up (Scripts/bench/soak.py). Not part of the test run.
#   Scripts/soak.sh [PAGES] [--concurrency N]
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-packages.sh
swift build -c release --product webparse 2>&1 | { grep -v "warning: prohibited flag" || true; } >&2
exec python3 Scripts/bench/soak.py "$@"
