#!/usr/bin/env bash
# Installs the Debian packages webparse needs to build, test and run, if any is missing.
# Used by bootstrap.sh and test.sh; needs root or sudo when something must be installed.
set -euo pipefail

packages=(
  libwebkit2gtk-4.1-dev  # WebKitGTK 4.1 (with GTK 3 and GLib) to build against and run
  libgtk-3-dev
  libglib2.0-dev
  libxml2-dev            # extract's XPath selectors are checked with libxml2 (WebKitGTK uses it too)
  libhiredis-dev         # the Redis client of work queues' workers
  redis-server           # the tests of work queues start their own Redis
  pkg-config             # SwiftPM finds WebKitGTK's flags through it
  xvfb                   # the private display webparse starts when there is none
  jq                     # the README's example pipes webparse's output into it
  python3-jsonschema     # the tests check the example configs against the config's JSON Schema
  python3-feedparser     # and parse the Atom feeds of run --feed
  python3-venv           # kubernetes-validate (from PyPI) goes into a virtual environment of its own
  x11-utils              # the tests check with xdpyinfo that no one else can use webparse's private display
  libjs-jquery           # the tests of steps use a real jQuery, as the sites they act on do
  libjs-bootstrap        # and the Flask fixture's pages load Bootstrap's stylesheet, as real sites' pages do
  python3-flask          # the tests of crawl and follow read a real Flask app (Werkzeug's server)
  node-react-dom         # the tests of steps hydrate a server-rendered page with a real React (its UMD build)
  libjs-vue              # and mount a real Vue app imported on demand
  groff-base             # the tests check that the manual page renders without warnings
  dpkg-dev               # Scripts/package.sh finds the .deb's Depends with dpkg-shlibdeps
  lintian                # and checks the .deb with lintian
  apprise                # the tests send notifications through it to a local json:// endpoint
  zsh                    # the tests drive each completion script in its own shell
  fish
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "webparse: installing ${missing[*]}" >&2
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The tests check the Kubernetes examples with kubernetes-validate, from PyPI (Debian has no such tool), in a
# virtual environment of Debian's Python under .build, so that it works where pip may not install system-wide.
tools=$(cd "$(dirname "$0")/.." && pwd)/.build/tools/python
if ! "$tools/bin/python3" -c "import kubernetes_validate" 2>/dev/null; then
  echo "webparse: installing kubernetes-validate (PyPI) into $tools" >&2
  /usr/bin/python3 -m venv "$tools"
  "$tools/bin/python3" -m pip install --quiet --disable-pip-version-check kubernetes-validate
fi

# The real applications the tests run webparse on (Datasette, Django, NiceGUI: Tests/Fixtures/real_apps), pinned
# with everything they bring, in a virtual environment of Debian's Python under .build.
apps=$(cd "$(dirname "$0")/.." && pwd)/.build/real-apps
requirements=$(cd "$(dirname "$0")/.." && pwd)/Tests/Fixtures/real_apps/requirements.txt
if ! cmp -s "$requirements" "$apps/installed-requirements.txt"; then
  echo "webparse: installing the tests' real applications (PyPI) into $apps" >&2
  rm -rf "$apps"
  /usr/bin/python3 -m venv "$apps"
  "$apps/bin/python3" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$apps/installed-requirements.txt"
fi
