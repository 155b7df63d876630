#!/usr/bin/env bash
# Fuzzes the config loader with libFuzzer for SECONDS (default 300), starting from the bad-config corpus
# and the examples. The loader's sources are compiled together with WebParser's job types, with coverage
# and AddressSanitizer; a crash leaves its input in .build/fuzz/ and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
out=.build/fuzz
mkdir -p "$out/corpus"
cp Tests/webparseTests/BadConfigs/*.json Examples/comics/config.json "$out/corpus/"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g)
swiftc "${flags[@]}" -emit-module -emit-library -static -module-name WebParser \
  -emit-module-path "$out/WebParser.swiftmodule" -o "$out/libWebParser.a" Sources/WebParser/WebParserJob.swift
swiftc "${flags[@]}" -module-name webparse -I "$out" -L "$out" -lWebParser -o "$out/config-fuzzer" \
  Sources/webparse/Config/*.swift Sources/webparse/CommandLine/UsageError.swift Tests/Fuzz/ConfigFuzzer.swift
"$out/config-fuzzer" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/" "$out/corpus"
