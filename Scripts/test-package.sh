#!/usr/bin/env bash
# Installs dist/webparse_*.deb with apt on a clean Debian 12 root file system (made by mmdebstrap, which
# downloads it from Debian's mirror, so this is not part of Scripts/test.sh) and runs, with no Swift toolchain,
# no display and only what the .deb's Depends bring: the bundled example (its titles are printed), and a capture
# of the feed recipe's JSON API from the recipes' site (the web process extension the .deb installs).
# Needs root and mmdebstrap (apt install mmdebstrap); run Scripts/package.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls dist/webparse_*.deb | tail -1)
command -v mmdebstrap >/dev/null || { echo "test-package.sh: needs mmdebstrap (apt install mmdebstrap)" >&2; exit 1; }
checks=$(mktemp)
trap 'rm -f "$checks"' EXIT
cat > "$checks" <<'CHECKS'
set -eu
! command -v swift
test -z "${DISPLAY:-}"
webparse --version
webparse run /tmp/comics/config.json | jq -r '.[].title'
python3 /tmp/recipes/serve.py 8731 & server=$!
sleep 1
webparse eval http://127.0.0.1:8731/feed.html --capture api/feed --collect responses \
  | jq -e '.[0].status == 200 and (.[0].body | fromjson) == ["Post 1", "Post 2", "Post 3", "Post 4", "Post 5"]'
kill "$server"
CHECKS
mmdebstrap --quiet --variant=minbase --include=jq,python3,libjs-jquery bookworm /dev/null \
  --customize-hook="copy-in $deb /tmp" \
  --customize-hook='chroot "$1" sh -c "apt-get install -y -qq --no-install-recommends /tmp/webparse_*.deb >/dev/null"' \
  --customize-hook='copy-in Examples/comics Examples/recipes /tmp' \
  --customize-hook="copy-in $checks /tmp" \
  --customize-hook="chroot \"\$1\" sh /tmp/$(basename "$checks")"
