#!/usr/bin/env bash
# Runs every test: unit tests on a fake page, integration tests on real WebKitGTK against local HTTP servers,
# and CLI tests on the built binary. Needs no display: webparse starts its own Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-packages.sh
# The code's layout is swift-format's, as .swift-format configures it: a file that is not fails the run (fix it
# with: swift format --in-place -r Sources Tests Package.swift).
swift format lint --strict -r Sources Tests Package.swift
# SwiftPM warns that it drops -pthread from pkg-config's flags; that is harmless, so it is filtered out.
swift build --build-tests 2>&1 | { grep -v "warning: prohibited flag" || true; } >&2
# One test at a time: on two cores, WebKit pages of parallel tests would skew the tests that check how soon
# something happens (a signal ends a run within a second, a locked run leaves at once).
swift test --skip-build --no-parallel "$@"
# The library as another package uses it: Examples/LibraryUsage builds against this checkout and prints
# what it scraped from the bundled comic site.
swift build --package-path Examples/LibraryUsage 2>&1 | { grep -v "warning: prohibited flag" || true; } >&2
Examples/LibraryUsage/.build/debug/LibraryUsage 2>/dev/null | diff -u Examples/LibraryUsage/expected-output.txt - \
    || { echo "Examples/LibraryUsage did not print what Examples/LibraryUsage/expected-output.txt holds" >&2; exit 1; }
echo "Examples/LibraryUsage: built and ran as expected" >&2
# The config fuzzer is built from the package's sources, so that it cannot stop compiling unnoticed; running it
# for a while is Scripts/fuzz-config.sh's job.
Scripts/fuzz-config.sh --build-only
echo "Scripts/fuzz-config.sh: the fuzzer builds" >&2
# The packages users install: the static, stripped binary (nothing of the toolchain), the tarball, and the .deb
# (its files, Depends, lintian), as Scripts/package.sh builds and checks them.
Scripts/package.sh >&2
# Reproducible: a second build of the same commit gives the same bytes.
first=$(sha256sum dist/webparse-*.tar.gz dist/webparse_*.deb)
Scripts/package.sh >/dev/null 2>&1
[ "$(sha256sum dist/webparse-*.tar.gz dist/webparse_*.deb)" = "$first" ] || {
  echo "Scripts/package.sh: a second build gave other bytes:" >&2; echo "$first" >&2; sha256sum dist/* >&2; exit 1; }
echo "Scripts/package.sh: the tarball and the .deb build, pass their checks and build again byte for byte" >&2
