#!/usr/bin/env bash
# Regenerates Tests/JSAssemblerTests/Golden/{x86_64,arm64}.txt: every instruction text of
# the encoding tests (X86_64Cases.swift, ARM64Cases.swift), assembled by llvm-mc (Debian
# `llvm`). Run after adding a case; the encoding tests then compare our bytes with these.
# Usage: tools/asm-golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v llvm-mc >/dev/null || { echo "llvm-mc not found (apt-get install llvm)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The test writes the case texts when SABLE_ASM_CASES_DIR is set (and may fail: no golden yet).
SABLE_ASM_CASES_DIR="$tmp" swift test --filter X86_64EncodingTests/everyFormMatchesTheGoldenFile >/dev/null 2>&1 || true
for arch in x86_64 arm64; do
    test -s "$tmp/$arch.s" || { echo "no $arch cases written" >&2; exit 1; }
    if [ "$arch" = x86_64 ]; then
        { echo ".intel_syntax noprefix"; cat "$tmp/$arch.s"; } > "$tmp/in.s"
        triple=x86_64-unknown-linux-gnu
    else
        cp "$tmp/$arch.s" "$tmp/in.s"
        triple=aarch64-unknown-linux-gnu
    fi
    llvm-mc -triple=$triple -show-encoding "$tmp/in.s" > "$tmp/out.txt"
    python3 - "$tmp/$arch.s" "$tmp/out.txt" > "Tests/JSAssemblerTests/Golden/$arch.txt" <<'PY'
import re, sys
texts = [l.rstrip("\n") for l in open(sys.argv[1])]
encodings = [m.group(1) for m in re.finditer(r"encoding: \[([^\]]*)\]", open(sys.argv[2]).read())]
if len(texts) != len(encodings):
    sys.exit(f"{len(texts)} cases but {len(encodings)} encodings")
for t, e in zip(texts, encodings):
    print(t + "\t" + " ".join(b[2:].rjust(2, "0") for b in e.split(",")))
PY
    echo "wrote $(wc -l < Tests/JSAssemblerTests/Golden/$arch.txt) encodings to Tests/JSAssemblerTests/Golden/$arch.txt"
done
