# Sourced by the window e2e scripts: starts Xvfb on a free display (killed at exit) and
# exports DISPLAY once the server accepts connections (its socket exists). A loaded
# machine can take seconds to start it: wait up to 30 s, and if that Xvfb died (a display
# taken meanwhile), try the next free number.
XVFB=
for d in $(seq 90 120); do
  [ -e /tmp/.X11-unix/X$d ] || [ -e /tmp/.X$d-lock ] && continue
  Xvfb ":$d" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
  XVFB=$!
  for _ in $(seq 300); do
    [ -e "/tmp/.X11-unix/X$d" ] && break
    kill -0 "$XVFB" 2>/dev/null || break
    sleep 0.1
  done
  [ -e "/tmp/.X11-unix/X$d" ] && kill -0 "$XVFB" 2>/dev/null && break
  kill "$XVFB" 2>/dev/null || true
  XVFB=
done
[ -n "$XVFB" ] || { echo "xvfb.sh: Xvfb did not start on any display from :90 to :120" >&2; exit 1; }
trap 'kill $XVFB 2>/dev/null || true' EXIT
export DISPLAY=":$d"
