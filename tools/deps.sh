#!/usr/bin/env bash
# Installs what building Sable needs beyond Swift: libseccomp (the lockdown worker).
# Debian/Ubuntu; a no-op when the header is already there.
set -euo pipefail
if [ ! -f /usr/include/seccomp.h ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "== installing libseccomp-dev"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y libseccomp-dev
fi
