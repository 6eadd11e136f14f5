#!/usr/bin/env bash
# The baseline JIT's machine code, disassembled: runs `jsrun --jit=eager --print-code`
# (bytecode instructions each followed by their machine code as hex bytes) and turns the
# bytes into instructions with llvm-mc (apt-get install llvm).
# Usage: tools/print-code.sh [JSRUN] SCRIPT.js [jsrun options...]
set -euo pipefail
JSRUN=.build/release/jsrun
if [ $# -gt 0 ] && [ -x "$1" ] && [ "${1%.js}" = "$1" ]; then JSRUN=$1; shift; fi
command -v llvm-mc >/dev/null || { echo "llvm-mc not found (apt-get install llvm)" >&2; exit 1; }
triple=$(uname -m)-linux-gnu
"$JSRUN" --jit=eager --print-code "$@" 2>&1 >/dev/null | python3 -c '
import subprocess, sys
triple = sys.argv[1]
for line in sys.stdin:
    if line.startswith("0x"):
        out = subprocess.run(["llvm-mc", "--disassemble", "-triple=" + triple],
                             input=line, capture_output=True, text=True).stdout
        for ins in out.splitlines():
            ins = ins.strip()
            if ins and not ins.startswith(".text"):
                print("        " + ins)
    else:
        sys.stdout.write(line)
' "$triple"
