#!/usr/bin/env bash
# Benchmarks webparse against Debian's chromium (--dump-dom) and Python Playwright driving that chromium, on
# local pages served by Scripts/bench/fixtures.py and on a Plotly Dash app (Scripts/bench/dash_app.py), at 1 to 8
# pages at once, and prints a table with the ratios the speed issues target.
#   Scripts/bench.sh [--install-peers] [bench.py options: --repeats N --batch N --spa-batch N]
# Peers that are not installed are left out; --install-peers installs chromium (apt) and Playwright (PyPI, into
# .build/bench-venv, using the system chromium: no browser download), Dash and Django (PyPI, same venv).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--install-peers" ]; then
  shift
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null
  python3 -m venv .build/bench-venv
  .build/bench-venv/bin/pip install -q playwright dash django
  # Lightpanda's crawl benchmark site (Apache-2.0), for the crawl section; skipped when GitHub cannot be reached.
  [ -d .build/lightpanda-demo ] || git clone -q --depth 1 https://github.com/lightpanda-io/demo .build/lightpanda-demo \
    || echo "bench.sh: github.com/lightpanda-io/demo could not be cloned; the crawl section will be skipped" >&2
fi
Scripts/install-packages.sh
# Built as it ships (install.sh, package.sh): the Swift runtime linked in, which starts ~10 ms sooner.
swift build -c release --product webparse --static-swift-stdlib --disable-local-rpath 2>&1 | { grep -v "warning: prohibited flag\|warning: the use of .mktemp." || true; } >&2
Scripts/build-extension.sh .build/release/libwebparse-extension.so
exec python3 Scripts/bench/bench.py "$@"
