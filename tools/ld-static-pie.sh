#!/bin/sh
# The linker of jsrun (Package.swift: clang's --ld-path): lld, without the `-rpath=$ORIGIN`
# SwiftPM adds to every executable. jsrun is a static PIE (issue 16), which loads no shared
# library, and glibc's static-PIE start-up asserts that there is no DT_RUNPATH.
lld=$(dirname "$(readlink -f "$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)")")/ld.lld
[ -x "$lld" ] || lld=ld.lld
skip=0
for a in "$@"; do
    shift
    if [ $skip = 1 ]; then skip=0; continue; fi
    case $a in
        -rpath|--rpath|-R) skip=1; continue ;;
        -rpath=*|--rpath=*) continue ;;
    esac
    set -- "$@" "$a"
done
exec "$lld" "$@"
