# Shared by the deploy/local scripts and ./toolsmith: where state lives and small process helpers.
# shellcheck shell=bash
TOOLSMITH_HOME="${TOOLSMITH_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
STATE_DIR="${TOOLSMITH_STATE_DIR:-$TOOLSMITH_HOME/.state}"
LOG_DIR="$STATE_DIR/logs"
PID_DIR="$STATE_DIR/pids"
mkdir -p "$LOG_DIR" "$PID_DIR"

# True when the pid file names a live process whose command line contains the marker.
is_running() {
  local pidfile="$PID_DIR/$1.pid" marker="$2"
  [ -f "$pidfile" ] || return 1
  local pid; pid=$(cat "$pidfile")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$marker"
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && exec 3>&- 3<&-
}

# Stops the process recorded under name (TERM, then KILL after a grace period) and forgets it.
stop_process() {
  local name="$1" marker="$2" grace="${3:-20}"
  if ! is_running "$name" "$marker"; then
    rm -f "$PID_DIR/$name.pid"
    return 0
  fi
  local pid; pid=$(cat "$PID_DIR/$name.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 "$((grace * 5))"); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  rm -f "$PID_DIR/$name.pid"
  echo "stopped $name (pid $pid)"
}
