#!/usr/bin/env bash
# Installs dist/webparse_*.deb with apt on a clean Debian 12 root file system (made by mmdebstrap, which
# downloads it from Debian's mirror, so this is not part of Scripts/test.sh) and runs, with no Swift toolchain,
# no display and only what the .deb's Depends bring: its documentation and the binary's size, the bundled example
# (its titles are printed), and a capture of the feed recipe's JSON API from the recipes' site (the web process
# extension the .deb installs). Then the
# example again as Examples/kubernetes runs it: as the Containerfile's user (uid and gid 10001, made by its own
# commands), no capabilities, no_new_privs, a read-only root file system with /tmp and /data writable.
# Needs root and mmdebstrap (apt install mmdebstrap); run Scripts/package.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls dist/webparse_*.deb | tail -1)
command -v mmdebstrap >/dev/null || { echo "test-package.sh: needs mmdebstrap (apt install mmdebstrap)" >&2; exit 1; }
# The Containerfile's own commands that make its user and group.
users=$(sed -n -E 's/^[[:space:]]*(&&[[:space:]]*)?((groupadd|useradd) [^\\]*[^ \\])[[:space:]]*\\?$/\2/p' Containerfile | paste -sd ';')
[ -n "$users" ] || { echo "test-package.sh: the Containerfile makes no user" >&2; exit 1; }
checks=$(mktemp)
restricted=$(mktemp)
trap 'rm -f "$checks" "$restricted"' EXIT
cat > "$checks" <<'CHECKS'
set -eu
if command -v swift; then echo a Swift toolchain is installed >&2; exit 1; fi
test -z "${DISPLAY:-}"
webparse --version
# The user documentation where the man page points, and the binary's size: 16.2 MB without Foundation's ICU data,
# which any use of swift-corelibs-foundation would link back in (60.2 MB with it; dev/performance-notes.md).
test -f /usr/share/doc/webparse/README.md.gz && test -f /usr/share/doc/webparse/examples/comics/config.json
test -f /usr/share/webparse/webparse.schema.json
# The Debian changelog is CHANGELOG.md's entries for the packaged version.
version=$(webparse --version | cut -d' ' -f2)
zcat /usr/share/doc/webparse/changelog.gz | head -1 | grep -qF "webparse ($version) unstable"
zcat /usr/share/doc/webparse/changelog.gz | grep -q '^  \* [A-Za-z`]'
size=$(stat -c %s /usr/bin/webparse)
if [ "$size" -gt 33554432 ]; then echo "the binary is $size bytes, over 32 MiB: did Foundation (and ICU) come back?" >&2; exit 1; fi
man -w webparse >/dev/null 2>&1 || test -f /usr/share/man/man1/webparse.1.gz
webparse run /tmp/comics/config.json | jq -r '.[].title'
python3 /tmp/recipes/serve.py 8731 & server=$!
sleep 1
webparse eval http://127.0.0.1:8731/feed.html --capture api/feed --collect responses \
  | jq -e '.[0].status == 200 and (.[0].body | fromjson) == ["Post 1", "Post 2", "Post 3", "Post 4", "Post 5"]'
kill "$server"
CHECKS
# Run on the host with the root file system as $1: a mount namespace of its own where the root is read-only
# and only /tmp and /data (the pod's emptyDir and volume) can be written.
cat > "$restricted" <<'RESTRICTED'
set -eu
exec unshare --mount --propagation private sh -eu -c '
mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"
mount -t tmpfs -o mode=1777 tmpfs "$1/tmp"
mount -t tmpfs -o uid=10001,gid=10001,mode=0700 tmpfs "$1/data"
mount -t proc proc "$1/proc"
chroot "$1" setpriv --reuid 10001 --regid 10001 --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs \
  env HOME=/data sh -eu -c "
    test \"\$(id -u):\$(id -g)\" = 10001:10001
    if touch /usr/share/webparse-written 2>/dev/null; then echo the root file system is writable >&2; exit 1; fi
    cd /data && webparse run /srv/comics/config.json | jq -e \"length == 5\""
' sh "$1"
RESTRICTED
mmdebstrap --quiet --variant=minbase --include=jq,python3,libjs-jquery bookworm /dev/null \
  --customize-hook="copy-in $deb /tmp" \
  --customize-hook='chroot "$1" sh -c "apt-get install -y -qq --no-install-recommends /tmp/webparse_*.deb >/dev/null"' \
  --customize-hook='copy-in Examples/comics Examples/recipes /tmp' \
  --customize-hook="copy-in $checks /tmp" \
  --customize-hook="chroot \"\$1\" sh /tmp/$(basename "$checks")" \
  --customize-hook='mkdir -p "$1/srv" && cp -r Examples/comics "$1/srv/"' \
  --customize-hook="chroot \"\$1\" sh -c '$users'" \
  --customize-hook="sh $restricted \"\$1\""
echo "test-package.sh: the .deb installs and runs on a clean Debian 12, also as the restricted Kubernetes pod runs it" >&2
