# Shared by the deploy/local scripts and ./toolsmith: where state lives and small process helpers.
# shellcheck shell=bash
TOOLSMITH_HOME="${TOOLSMITH_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
STATE_DIR="${TOOLSMITH_STATE_DIR:-$TOOLSMITH_HOME/.state}"
LOG_DIR="$STATE_DIR/logs"
PID_DIR="$STATE_DIR/pids"
CREDENTIALS="$STATE_DIR/credentials.env"
mkdir -p "$LOG_DIR" "$PID_DIR"

# Local credentials are generated once per state folder and printed by `./toolsmith up`; nothing is
# hard-coded. A credentials file from before an entry existed gets that entry appended; the others stay.
# KAFKA_<PRINCIPAL>_PASSWORD: the SCRAM passwords of the broker's principals (deploy/kafka/KafkaAccess.java).
ensure_credentials() {
  local rnd; rnd() { head -c 24 /dev/urandom | base64 | tr -d '/+=' | head -c 32; }
  local key; key() { head -c 32 /dev/urandom | base64; }
  (umask 077 && touch "$CREDENTIALS")
  local entry name
  for entry in ADMIN_API_KEY:rnd PLANNER_API_KEY:rnd SERVICE_API_KEY:rnd UI_ADMIN_PASSWORD:rnd16 \
      UI_VIEWER_PASSWORD:rnd16 SECRETS_KEY:key UI_SESSION_KEY:key KAFKA_ADMIN_PASSWORD:rnd \
      KAFKA_LIBRARIAN_PASSWORD:rnd KAFKA_CAPABILITIES_MANAGER_PASSWORD:rnd KAFKA_ENGINEER_PASSWORD:rnd \
      KAFKA_PLANNER_PASSWORD:rnd; do
    name="${entry%%:*}"
    grep -q "^$name=" "$CREDENTIALS" && continue
    case "${entry#*:}" in
      rnd) echo "$name=$(rnd)" ;;
      rnd16) echo "$name=$(rnd | head -c 16)" ;;
      key) echo "$name=$(key)" ;;
    esac >> "$CREDENTIALS"
  done
  # The librarian seals approvals with an Ed25519 key; the other services verify with its public half.
  if ! grep -q '^APPROVAL_SIGNING_KEY=' "$CREDENTIALS"; then
    local der; der=$(mktemp)
    openssl genpkey -algorithm ed25519 -outform DER -out "$der" 2>/dev/null \
      || { rm -f "$der"; echo "toolsmith: openssl is needed to make the approval key pair" >&2; return 1; }
    { echo "APPROVAL_SIGNING_KEY=$(base64 -w0 "$der")"
      echo "APPROVAL_VERIFY_KEY=$(openssl pkey -inform DER -in "$der" -pubout -outform DER | base64 -w0)"; } >> "$CREDENTIALS"
    rm -f "$der"
  fi
  # shellcheck disable=SC1090
  source "$CREDENTIALS"
}

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
