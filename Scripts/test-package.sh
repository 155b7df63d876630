#!/usr/bin/env bash
# Installs dist/webparse_*.deb with apt on a clean Debian 12 root file system (made by mmdebstrap, which
# downloads it from Debian's mirror, so this is not part of Scripts/test.sh) and runs the bundled example there:
# no Swift toolchain, no display, only what the .deb's Depends bring. Prints the example's titles.
# Needs root and mmdebstrap (apt install mmdebstrap); run Scripts/package.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls dist/webparse_*.deb | tail -1)
command -v mmdebstrap >/dev/null || { echo "test-package.sh: needs mmdebstrap (apt install mmdebstrap)" >&2; exit 1; }
mmdebstrap --quiet --variant=minbase --include=jq bookworm /dev/null \
  --customize-hook="copy-in $deb /tmp" \
  --customize-hook='chroot "$1" sh -c "apt-get install -y -qq --no-install-recommends /tmp/webparse_*.deb >/dev/null"' \
  --customize-hook='copy-in Examples/comics /tmp' \
  --customize-hook='chroot "$1" sh -c "! command -v swift && test -z \"\$DISPLAY\" && webparse --version && webparse run /tmp/comics/config.json | jq -r \".[].title\""'
