#!/usr/bin/env bash
# Installs what building and testing Sable needs beyond Swift (Debian/Ubuntu; a no-op when
# everything is there): libseccomp (the lockdown worker), libcurl (the networking core), a
# C compiler (the policy probe test), and the arm64 cross tools (the arm64 assembler's
# execution tests run the code under qemu-aarch64, loaded by a program built with
# aarch64-linux-gnu-gcc).
set -euo pipefail
missing=()
[ -f /usr/include/seccomp.h ] || missing+=(libseccomp-dev)
[ -f /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -f /usr/include/aarch64-linux-gnu/curl/curl.h ] \
    || [ -f /usr/include/curl/curl.h ] || missing+=(libcurl4-openssl-dev)
command -v cc >/dev/null || missing+=(gcc)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "== installing ${missing[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi
