#!/usr/bin/env bash
# Runs every test: unit tests on a fake page, integration tests on real WebKitGTK against local HTTP servers,
# and CLI tests on the built binary. Needs no display: webparse starts its own Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-packages.sh
# SwiftPM warns that it drops -pthread from pkg-config's flags; that is harmless, so it is filtered out.
swift build --build-tests 2>&1 | { grep -v "warning: prohibited flag" || true; } >&2
# One test at a time: on two cores, WebKit pages of parallel tests would skew the tests that check how soon
# something happens (a signal ends a run within a second, a locked run leaves at once).
swift test --skip-build --no-parallel "$@"
