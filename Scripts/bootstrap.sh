#!/usr/bin/env bash
# Installs what webparse needs and builds it in release mode: .build/release/webparse.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-packages.sh
# SwiftPM warns that it drops -pthread from pkg-config's flags; that is harmless, so it is filtered out.
swift build -c release --product webparse 2>&1 | { grep -v "warning: prohibited flag" || true; } >&2
