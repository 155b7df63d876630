#!/usr/bin/env bash
# Fuzzes the config loader with libFuzzer for SECONDS (default 300), starting from the bad-config corpus
# and the examples. The WebParser library comes from the package's own release build; the loader's sources
# are compiled with coverage and AddressSanitizer around the libFuzzer entry point in Tests/Fuzz. A crash
# leaves its input in .build/fuzz/ and exits non-zero. With --build-only, builds the fuzzer and stops
# (Scripts/test.sh does this, so that the fuzzer cannot stop compiling unnoticed).
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = "--build-only" ]; then build_only=true; shift; fi
seconds="${1:-300}"
out=.build/fuzz
mkdir -p "$out/corpus"
swift build -c release --target WebParser 2>&1 | { grep -v "warning: prohibited flag" || true; } >&2
release="$(swift build -c release --show-bin-path)"
# The loader uses the library's package-level types (InputFile, AtomicFile): compile it as part of the package,
# under the name SwiftPM gave the package (its folder's name).
package_name="$(grep -A1 '"-package-name"' "$release/description.json" | sed -n 2p | tr -d ' ",')"
# The loader's sources: the core library's config folder, the JSON parser it reads with (instrumented here too:
# it is most of what the fuzzer reaches; the loader's own copy shadows the library's), the container limits
# its run settings are sized by, the schedule a job's every makes, and the crawl's URL form and records a crawl's fields
# and a queue's items use.
sources=(Sources/WebParserCore/Config/*.swift Sources/WebParser/JSON/JSONNode.swift Sources/WebParserCore/Run/{ContainerLimits,Schedule}.swift
  Sources/WebParserCore/Crawl/{CrawlRecord,CrawlURL,PageFailure}.swift)
# The library's objects: one per source file that exists now (a build folder may keep objects of removed files).
objects=()
for module in CWebKitGTK PageJavaScript; do
  for file in Sources/"$module"/*.c; do objects+=("$release/$module.build/$(basename "$file").o"); done
done
while IFS= read -r file; do objects+=("$release/WebParser.build/$(basename "$file").o"); done < <(find Sources/WebParser -name '*.swift')
# shellcheck disable=SC2046 # pkg-config's flags are words
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld -module-name WebParserCore -package-name "$package_name" \
  -I "$release/Modules" -Xcc -fmodule-map-file="$release/CWebKitGTK.build/module.modulemap" \
  -Xcc -fmodule-map-file="$release/PageJavaScript.build/module.modulemap" \
  -Xcc -fmodule-map-file=Sources/WebKitGTKSystem/module.modulemap \
  -Xcc -fmodule-map-file=Sources/LibXML2System/module.modulemap \
  $(pkg-config --cflags-only-I webkit2gtk-4.1 libxml-2.0 | sed 's/-I/-Xcc -I/g') \
  "${sources[@]}" Tests/Fuzz/ConfigFuzzer.swift "${objects[@]}" \
  $(pkg-config --libs-only-l webkit2gtk-4.1 libxml-2.0) -o "$out/config-fuzzer"
$build_only && exit 0
cp Tests/WebParserCoreTests/BadConfigs/*.json Examples/comics/config.json "$out/corpus/"
"$out/config-fuzzer" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/" "$out/corpus"
