#!/usr/bin/env bash
# Regenerates Tests/JSAssemblerTests/Golden/x86_64.txt: every instruction text of the
# x86_64 encoding tests (X86_64Cases.swift), assembled by llvm-mc (Debian `llvm`).
# Run after adding a case; the encoding test then compares our bytes with these.
# Usage: tools/asm-golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v llvm-mc >/dev/null || { echo "llvm-mc not found (apt-get install llvm)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The test writes the case texts when SABLE_ASM_CASES_OUT is set (and may fail: no golden yet).
SABLE_ASM_CASES_OUT="$tmp/cases.s" swift test --filter X86_64EncodingTests/everyFormMatchesTheGoldenFile >/dev/null 2>&1 || true
test -s "$tmp/cases.s" || { echo "no cases written" >&2; exit 1; }
{ echo ".intel_syntax noprefix"; cat "$tmp/cases.s"; } > "$tmp/in.s"
llvm-mc -triple=x86_64-unknown-linux-gnu -show-encoding "$tmp/in.s" > "$tmp/out.txt"
python3 - "$tmp/cases.s" "$tmp/out.txt" > Tests/JSAssemblerTests/Golden/x86_64.txt <<'PY'
import re, sys
texts = [l.rstrip("\n") for l in open(sys.argv[1])]
encodings = [m.group(1) for m in re.finditer(r"encoding: \[([^\]]*)\]", open(sys.argv[2]).read())]
if len(texts) != len(encodings):
    sys.exit(f"{len(texts)} cases but {len(encodings)} encodings")
for t, e in zip(texts, encodings):
    print(t + "\t" + " ".join(b[2:].rjust(2, "0") for b in e.split(",")))
PY
echo "wrote $(wc -l < Tests/JSAssemblerTests/Golden/x86_64.txt) encodings to Tests/JSAssemblerTests/Golden/x86_64.txt"
