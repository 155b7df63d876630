#!/usr/bin/env bash
# Builds webparse from this checkout and installs it under PREFIX (default /usr/local): the binary, webparse(1),
# its web process extension (lib/webparse/), bash/zsh/fish completions and the config's JSON Schema. Runs Scripts/install-packages.sh first, so it needs
# root (or sudo) when packages are missing; PREFIX must be writable.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
Scripts/install-packages.sh
swift build -c release --product webparse --static-swift-stdlib --disable-local-rpath 2>&1 | { grep -v "warning: prohibited flag\|warning: the use of .mktemp." || true; } >&2
binary=.build/release/webparse
install -D -m 0755 "$binary" "$prefix/bin/webparse"
strip --strip-all "$prefix/bin/webparse"
install -d "$prefix/lib/webparse"
Scripts/build-extension.sh "$prefix/lib/webparse/libwebparse-extension.so"
install -d "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d" "$prefix/share/webparse"
"$binary" help --man | gzip -9n > "$prefix/share/man/man1/webparse.1.gz"
"$binary" completions bash > "$prefix/share/bash-completion/completions/webparse"
"$binary" completions zsh > "$prefix/share/zsh/site-functions/_webparse"
"$binary" completions fish > "$prefix/share/fish/vendor_completions.d/webparse.fish"
install -m 0644 Examples/webparse.schema.json "$prefix/share/webparse/webparse.schema.json"
echo "webparse installed in $prefix/bin/webparse ($("$prefix/bin/webparse" --version))" >&2
