#!/usr/bin/env bash
# Installs what building and testing Sable needs beyond Swift (Debian/Ubuntu; a no-op when
# everything is there): libseccomp (the lockdown worker), libffi (the FFI), libcurl (the
# networking core), Cairo, Pango and the DejaVu fonts (the rendering core), GTK 4, Xvfb, xdotool and ImageMagick
# (the browser window and its test), a
# C compiler (the policy probe test), and the arm64 cross tools (the arm64 assembler's
# execution tests run the code under qemu-aarch64, loaded by a program built with
# aarch64-linux-gnu-gcc).
set -euo pipefail
missing=()
[ -f /usr/include/seccomp.h ] || missing+=(libseccomp-dev)
# libffi and zlib: the FFI (jsrun --ffi, JSFFI) and its tests, which call libz.so.1.
ls /usr/include/*/ffi.h >/dev/null 2>&1 || [ -f /usr/include/ffi.h ] || missing+=(libffi-dev)
ls /usr/lib/*/libz.so.1 >/dev/null 2>&1 || ls /lib/*/libz.so.1 >/dev/null 2>&1 || missing+=(zlib1g)
[ -f /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -f /usr/include/aarch64-linux-gnu/curl/curl.h ] \
    || [ -f /usr/include/curl/curl.h ] || missing+=(libcurl4-openssl-dev)
[ -f /usr/include/cairo/cairo.h ] || missing+=(libcairo2-dev)
[ -f /usr/include/pango-1.0/pango/pangocairo.h ] || missing+=(libpango1.0-dev)
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
# The browser's window (GTK 4, loaded at run time: the runtime library is enough) and its test
# under Xvfb (xdotool drives it, ImageMagick's import takes the screenshots).
ls /usr/lib/*/libgtk-4.so.1 >/dev/null 2>&1 || missing+=(libgtk-4-1)
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xdotool >/dev/null || missing+=(xdotool)
command -v import >/dev/null || missing+=(imagemagick)
command -v cc >/dev/null || missing+=(gcc)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "== installing ${missing[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi
