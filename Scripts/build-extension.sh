#!/usr/bin/env bash
# Builds webparse's web process library (Sources/CWebParseExtension: the capture extension, and the EGL vendor
# with no device) into FILE, as installs and packages ship it: stripped, mode 0644, linked against WebKitGTK's web
# extension library only. (SwiftPM's own build of the
# webparse-extension product, which development runs use, also links the Swift runtime, found through the
# toolchain's path.) Uses the Swift toolchain's clang, for C23's #embed.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:?usage: Scripts/build-extension.sh FILE}
clang=$(dirname "$(readlink -f "$(command -v swift)")")/clang
# shellcheck disable=SC2046  # pkg-config's flags are words
"$clang" -std=c23 -shared -fPIC -O2 -Wall -Werror -Wl,--as-needed -Wl,-z,relro,-z,now -Wl,-soname,libwebparse-extension.so \
  -I Sources/WebParseProtocol/include -I Sources/CWebParseExtension/include -o "$file" Sources/CWebParseExtension/extension.c Sources/CWebParseExtension/egl_vendor.c \
  $(pkg-config --cflags --libs webkit2gtk-web-extension-4.1)
strip --strip-unneeded --remove-section=.comment "$file"
chmod 0644 "$file"
