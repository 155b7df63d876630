#!/usr/bin/env bash
# Builds webparse for people without a Swift toolchain, offline, once the packages Scripts/install-packages.sh
# installs are there:
#   dist/webparse-VERSION-linux-ARCH.tar.gz  the binary, its web process extension (lib/webparse/, for capture),
#                                            webparse(1), bash/zsh/fish completions, the config's JSON Schema,
#                                            README, docs/ and LICENSE
#   dist/webparse_VERSION_DEBARCH.deb        the same laid out for Debian, Depends found by dpkg-shlibdeps, with
#                                            the README, docs/ and examples in /usr/share/doc/webparse
# The Swift runtime is linked in (--static-swift-stdlib), no run path is set, and the binary is stripped (with its
# .comment); the script fails if the binary has a run path, needs the toolchain's libraries or lacks BIND_NOW, or if lintian finds
# an error or a warning in the .deb. Both files are reproducible: their times are SOURCE_DATE_EPOCH (by default
# the last commit's), their owners root, their entries sorted.
#   Scripts/package.sh --image [NAME]   also builds the Containerfile's image from the .deb, tagged NAME:VERSION
#                                       (default webparse), with podman or docker; BASE=IMAGE builds it on a
#                                       local Debian 12 image when no registry is reachable. Push it to your own
#                                       registry for Examples/kubernetes: podman push NAME:VERSION.
set -euo pipefail
cd "$(dirname "$0")/.."
image=
if [ "${1:-}" = "--image" ]; then
  image=${2:-webparse}
  builder=$(command -v podman || command -v docker) || { echo "package.sh --image: needs podman (apt install podman) or docker" >&2; exit 2; }
fi
version=$(head -n 1 VERSION)
arch=$(uname -m)
deb_arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}

swift build -c release --product webparse --static-swift-stdlib --disable-local-rpath 2>&1 | { grep -v "warning: prohibited flag\|warning: the use of .mktemp." || true; } >&2
built=.build/release/webparse
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-all --remove-section=.comment -o "$work/webparse" "$built"
binary=$work/webparse
# The web process extension, which WebKit loads into web processes for capture: compiled here with the
# toolchain's clang (its hook is compiled in with C23's #embed), because SwiftPM links every dynamic library
# product against the Swift runtime, which web processes do not have.
extension=$work/libwebparse-extension.so
Scripts/build-extension.sh "$extension"

# Nothing of the toolchain may be needed at run time, and no run path set (Debian's policy; lintian's info).
if readelf -d "$binary" | grep -E "RPATH|RUNPATH|NEEDED" | grep -q -e "RPATH" -e "RUNPATH" -e "libswift" -e "libFoundation" -e "libdispatch"; then
  echo "package.sh: $built has a run path or still needs the Swift toolchain:" >&2
  readelf -d "$binary" | grep -E "RPATH|RUNPATH|NEEDED" >&2
  exit 1
fi
readelf -d "$binary" | grep -q "FLAGS.*NOW" || { echo "package.sh: $built is not linked with -z now" >&2; exit 1; }
"$binary" --version | grep -qx "webparse $version"
if readelf -d "$extension" | grep -E "RPATH|RUNPATH|NEEDED" | grep -q -e "RPATH" -e "RUNPATH" -e "libswift"; then
  echo "package.sh: $extension needs more than WebKitGTK:" >&2
  readelf -d "$extension" | grep -E "RPATH|RUNPATH|NEEDED" >&2
  exit 1
fi

# The files both artifacts carry.
extras=$work/extras
mkdir -p "$extras"
"$binary" help --man > "$extras/webparse.1"
gzip -9n < "$extras/webparse.1" > "$extras/webparse.1.gz"
for shell in bash zsh fish; do "$binary" completions "$shell" > "$extras/completion.$shell"; done

mkdir -p dist
# One version in dist: the Containerfile installs the .deb it finds there.
rm -f dist/webparse_*.deb dist/webparse-*.tar.gz
tree=$work/webparse-$version-linux-$arch
mkdir -p "$tree/bin" "$tree/share/man/man1" "$tree/share/completions"
cp "$binary" "$tree/bin/webparse"
install -D -m 0644 "$extension" "$tree/lib/webparse/libwebparse-extension.so"
cp "$extras/webparse.1.gz" "$tree/share/man/man1/"
cp "$extras/completion.bash" "$tree/share/completions/webparse.bash"
cp "$extras/completion.zsh" "$tree/share/completions/_webparse"
cp "$extras/completion.fish" "$tree/share/completions/webparse.fish"
cp Examples/webparse.schema.json README.md LICENSE "$tree/"
cp -r docs "$tree/"
find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
tar -C "$work" --owner=0 --group=0 --numeric-owner --sort=name --mtime="@$SOURCE_DATE_EPOCH" -c "webparse-$version-linux-$arch" \
  | gzip -9n > "dist/webparse-$version-linux-$arch.tar.gz"

# The .deb: Depends are what the binary links against (dpkg-shlibdeps), and Xvfb, which it starts without a display.
root=$work/deb
install -D -m 0755 "$binary" "$root/usr/bin/webparse"
install -D -m 0644 "$extension" "$root/usr/lib/webparse/libwebparse-extension.so"
install -D -m 0644 "$extras/webparse.1.gz" "$root/usr/share/man/man1/webparse.1.gz"
install -D -m 0644 "$extras/completion.bash" "$root/usr/share/bash-completion/completions/webparse"
install -D -m 0644 "$extras/completion.zsh" "$root/usr/share/zsh/vendor-completions/_webparse"
install -D -m 0644 "$extras/completion.fish" "$root/usr/share/fish/vendor_completions.d/webparse.fish"
install -D -m 0644 Examples/webparse.schema.json "$root/usr/share/webparse/webparse.schema.json"
doc=$root/usr/share/doc/webparse
install -d "$doc"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: webparse"
  echo
  echo "Files: *"
  echo "Copyright: 2026 the webparse authors"
  echo "License: Expat"
  sed -e '1,2d' -e 's/^$/./' -e 's/^/ /' LICENSE
} > "$doc/copyright"
# The Debian changelog: CHANGELOG.md's entries for this version, each a "  * " item wrapped at 78 columns.
entries=$(awk -v heading="## $version " '
  /^## / { on = index($0, heading) == 1; next }
  on && /^- / { if (item != "") print item; item = "\001" substr($0, 3); next }
  on && /^  +[^ ]/ && item != "" { sub(/^ +/, ""); item = item " " $0; next }
  END { if (item != "") print item }' CHANGELOG.md | fold -s -w 74 | sed -e 's/^\x01/  * /' -e 't done' -e 's/^/    /' -e ':done' -e 's/ *$//')
[ -n "$entries" ] || { echo "package.sh: CHANGELOG.md has no entries under '## $version '" >&2; exit 1; }
printf 'webparse (%s) unstable; urgency=medium\n\n%s\n\n -- webparse authors <webparse@users.noreply.github.com>  %s\n' \
  "$version" "$entries" "$(date -R -u -d "@$SOURCE_DATE_EPOCH")" | gzip -9n > "$doc/changelog.gz"
# The user's documentation and the examples the man page and `help` point to.
gzip -9n < README.md > "$doc/README.md.gz"
mkdir -p "$doc/docs"
for page in docs/*.md; do gzip -9n < "$page" > "$doc/docs/$(basename "$page").gz"; done
mkdir -p "$doc/examples"
for example in comics cron kubernetes recipes; do cp -r "Examples/$example" "$doc/examples/"; done
find "$doc/examples" -name '__pycache__' -prune -exec rm -rf {} +
find "$doc" -type d -exec chmod 0755 {} + && find "$doc" -type f -exec chmod 0644 {} +
chmod 0644 "$doc/copyright" "$doc/changelog.gz"
mkdir -p "$work/shlibs/debian"
printf 'Source: webparse\n\nPackage: webparse\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$root/usr/bin/webparse" -e"$root/usr/lib/webparse/libwebparse-extension.so" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: webparse
Version: $version
Architecture: $deb_arch
Maintainer: webparse authors <webparse@users.noreply.github.com>
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Depends: $depends, xvfb
Suggests: apprise, jq
Section: web
Priority: optional
Homepage: https://github.com/webparse/webparse
Description: scrape JavaScript-rendered pages with WebKitGTK, from cron
 webparse loads each page of a small JSON config in an offscreen WebKit view,
 runs the config's JavaScript in it until the data is there, and prints the
 data as JSON for jq. With --state it prints only what is new since the last
 run, for update checks from cron or Kubernetes CronJobs.
CONTROL
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
deb=dist/webparse_${version}_$deb_arch.deb
# One compressor thread: twice in one session (2026-12-03) the multi-threaded build wrote a control.tar.xz
# that xz could not read back, and a rebuild of the same tree did not; the .deb is read back before lintian.
dpkg-deb --threads-max=1 --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
dpkg-deb --info "$deb" >/dev/null || { echo "package.sh: dpkg-deb wrote $deb, but cannot read it back" >&2; exit 1; }
if command -v lintian >/dev/null; then
  lintian --fail-on error,warning --suppress-tags no-manual-page "$deb" >&2
else
  echo "package.sh: lintian is not installed; install it (apt install lintian) to check the .deb" >&2
  exit 1
fi
# What the .deb must hold, and need.
contents=$(dpkg-deb -c "$deb" | awk '{print $NF}')
for file in ./usr/bin/webparse ./usr/lib/webparse/libwebparse-extension.so ./usr/share/man/man1/webparse.1.gz ./usr/share/bash-completion/completions/webparse \
            ./usr/share/zsh/vendor-completions/_webparse ./usr/share/fish/vendor_completions.d/webparse.fish \
            ./usr/share/doc/webparse/copyright ./usr/share/doc/webparse/README.md.gz ./usr/share/doc/webparse/docs/config.md.gz ./usr/share/doc/webparse/examples/comics/config.json \
            ./usr/share/doc/webparse/examples/kubernetes/cronjob.yaml ./usr/share/doc/webparse/examples/kubernetes/work-queue.yaml ./usr/share/webparse/webparse.schema.json; do
  grep -qx -- "$file" <<<"$contents" || { echo "package.sh: $deb lacks $file" >&2; exit 1; }
done
for package in libwebkit2gtk-4.1-0 libgtk-3-0 libglib2.0-0 libhiredis0.14 xvfb; do
  dpkg-deb -f "$deb" Depends | grep -q "\b$package\b" || { echo "package.sh: $deb does not depend on $package" >&2; exit 1; }
done
echo "dist/webparse-$version-linux-$arch.tar.gz"
echo "$deb"
if [ -n "$image" ]; then
  # podman runs the Containerfile's RUN steps in a chroot: no OCI runtime or cgroups needed on the build host.
  isolation=()
  [ "$(basename "$builder")" = podman ] && isolation=(--isolation chroot)
  "$builder" build "${isolation[@]}" ${BASE:+--build-arg "BASE=$BASE"} -t "$image:$version" -f Containerfile . >&2
  # The image's webparse answers; where the host cannot start containers (no cgroups or rlimits to give them),
  # podman's mount of the image is run in a chroot with its own /proc.
  if ! version_line=$("$builder" run --rm "$image:$version" --version 2>/dev/null) && [ "${isolation[*]}" != "" ]; then
    mounted=$(podman image mount "$image:$version")
    version_line=$(unshare --mount --propagation private sh -c 'mount -t proc proc "$1/proc" && chroot "$1" /usr/bin/webparse --version' sh "$mounted") || true
    podman image unmount "$image:$version" >/dev/null
  fi
  [ "$version_line" = "webparse $version" ] || { echo "package.sh: the image $image:$version does not run webparse $version" >&2; exit 1; }
  echo "$image:$version"
fi
