#!/usr/bin/env bash
# Installs what building and testing Sable needs beyond Swift (Debian/Ubuntu; a no-op when
# everything is there): libseccomp (the lockdown worker), libcurl (the networking core),
# Cairo, Pango and the DejaVu fonts (the rendering core), a
# C compiler (the policy probe test), and the arm64 cross tools (the arm64 assembler's
# execution tests run the code under qemu-aarch64, loaded by a program built with
# aarch64-linux-gnu-gcc).
set -euo pipefail
missing=()
[ -f /usr/include/seccomp.h ] || missing+=(libseccomp-dev)
[ -f /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -f /usr/include/aarch64-linux-gnu/curl/curl.h ] \
    || [ -f /usr/include/curl/curl.h ] || missing+=(libcurl4-openssl-dev)
[ -f /usr/include/cairo/cairo.h ] || missing+=(libcairo2-dev)
[ -f /usr/include/pango-1.0/pango/pangocairo.h ] || missing+=(libpango1.0-dev)
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
command -v cc >/dev/null || missing+=(gcc)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "== installing ${missing[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi
