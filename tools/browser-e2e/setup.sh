# Sourced by the browser end-to-end scripts (tools/browser-e2e.sh, browser-session-e2e.sh,
# browser-window-e2e.sh) from the package root with their arguments: builds sable and
# sable-worker when no sable path is given, and makes the Selenium venv (python3-venv
# installed when missing). Sets SABLE and VENV.
SABLE=${1:-.build/release/sable}
if [ "$#" -eq 0 ]; then
  swift build -c release --product sable >/dev/null && swift build -c release --product sable-worker >/dev/null
fi
VENV=${SABLE_E2E_VENV:-.build/e2e-venv}
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import selenium' 2>/dev/null; then
  if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q python3-venv
    rm -rf "$VENV"; python3 -m venv "$VENV"
  fi
  "$VENV/bin/pip" install -q selenium
fi
