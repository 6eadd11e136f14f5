# Sourced by the window e2e scripts: starts Xvfb on a free display (killed at exit) and
# exports DISPLAY.
for d in $(seq 90 120); do
  [ -e /tmp/.X11-unix/X$d ] || [ -e /tmp/.X$d-lock ] || break
done
Xvfb ":$d" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$d" ] && break; sleep 0.1; done
export DISPLAY=":$d"
