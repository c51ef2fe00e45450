#!/usr/bin/env bash
# ./toolsmith compose-test: docker-compose.yml for real, with podman and podman-compose (no Docker engine,
# no registry). Builds the jars if needed and every image (the published recipes on a Debian-built base),
# starts docker-compose.yml plus deploy/compose/docker-compose.local.yml in the order its depends_on
# conditions say, waits for every service to be healthy, runs `./toolsmith demo` against the containers,
# checks that the catalog, the approvals and the learned aliases outlive removing and re-creating every
# container (named volumes), then removes everything it created: containers, volumes, network, images.
# Kept between runs: the Debian base tarball, in the user's cache (~/.cache/toolsmith/debian-bookworm.tar), outside
# the clone so that a fresh clone on the same machine reuses it (like ~/.m2); rebuilt when a week old.
#
# Settings: TOOLSMITH_COMPOSE_KEEP_IMAGES=1 keeps the images (faster reruns while developing),
# TOOLSMITH_COMPOSE_CACHE (where the base tarball is kept, default ${XDG_CACHE_HOME:-~/.cache}/toolsmith),
# TOOLSMITH_COMPOSE_START_TIMEOUT (seconds per start stage, default 300).
# It takes the machine's platform lock (/tmp/platform.lock, or TOOLSMITH_PLATFORM_LOCK) for the whole run: it
# publishes the platform's default ports (8080-8083, Kafka 9092), as `./toolsmith up` uses them.
set -euo pipefail
TOOLSMITH_HOME="$(cd "$(dirname "$0")/../.." && pwd)"
export TOOLSMITH_HOME
WORK="$TOOLSMITH_HOME/target/compose-test"
export TOOLSMITH_STATE_DIR="$WORK/state"
# shellcheck source=../local/common.sh
source "$TOOLSMITH_HOME/deploy/local/common.sh"
cd "$TOOLSMITH_HOME"

PROJECT=toolsmith-compose-test
LOCAL=localhost/toolsmith-local
# The tag compose gives the Toolsmith images (TOOLSMITH_IMAGE_TAG): one of their own, so removing them at the
# end never touches an operator's images.
export TOOLSMITH_IMAGE_TAG=compose-test
SERVICES=(librarian capabilities-manager engineer airlock-ui)
PUBLISHED_PORTS=(8080 8081 8082 8083 9092)
TIMEOUT="${TOOLSMITH_COMPOSE_START_TIMEOUT:-300}"
LOGS="$WORK/logs"
mkdir -p "$LOGS"

stage() { printf '\n=== compose-test: %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
say() { printf '   %s\n' "$*"; }
fail() { printf '\ncompose-test FAILED: %s\n' "$*" >&2; exit 1; }
container() { echo "${PROJECT}_$1_1"; }

# --- the machine's platform lock: taken here unless a parent process (flock ... ./toolsmith compose-test) holds it
lock="${TOOLSMITH_PLATFORM_LOCK:-/tmp/platform.lock}"
parent_holds_lock() {
  local pid=$PPID
  while [ "$pid" -gt 1 ] 2>/dev/null; do
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "^flock .*$lock" && return 0
    pid=$(awk '/^PPid:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  done
  return 1
}
if [ -n "$lock" ] && ! parent_holds_lock; then
  exec 9>"$lock"
  if ! flock -n 9; then
    echo "compose-test: waiting for $lock (another platform run on this machine)..."
    flock 9
  fi
fi

# --- podman as it works in these sandboxes (../shared/design/RUNTIME-NOTES.md, "Containers"): runc, cgroupfs,
# no default rlimits, events in a file (no journald). Only this script's podman calls read it.
export CONTAINERS_CONF="$WORK/containers.conf"
cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF

compose() {
  podman-compose -p "$PROJECT" -f docker-compose.yml -f deploy/compose/docker-compose.local.yml "$@" \
    >>"$LOGS/podman-compose.log" 2>&1 || { tail -n 30 "$LOGS/podman-compose.log" >&2; fail "podman-compose $*"; }
}

# --- teardown: whatever happened, remove what this run created (the base tarball stays)
BUILT_IMAGES=()
PASSED=false
teardown() {
  local code=$?
  trap - EXIT
  if [ "$code" -ne 0 ] && podman ps -a --filter "label=io.podman.compose.project=$PROJECT" -q 2>/dev/null | grep -q .; then
    printf '\ncontainers at the failure:\n' >&2
    podman ps -a --filter "label=io.podman.compose.project=$PROJECT" --format '   {{.Names}}  {{.Status}}' >&2 || true
  fi
  if [ -n "${TOOLSMITH_COMPOSE_KEEP_IMAGES:-}" ]; then stage "teardown: containers, volumes, network (images kept)"
  else stage "teardown: containers, volumes, network, images"; fi
  if command -v podman-compose >/dev/null && [ -f "$CONTAINERS_CONF" ]; then
    podman-compose -p "$PROJECT" -f docker-compose.yml -f deploy/compose/docker-compose.local.yml down -v \
      >>"$LOGS/podman-compose.log" 2>&1 || true
    local ids; ids=$(podman ps -a --filter "label=io.podman.compose.project=$PROJECT" -q 2>/dev/null || true)
    [ -z "$ids" ] || podman rm -f -t 5 $ids >/dev/null 2>&1 || true
    ids=$(podman volume ls --filter "label=io.podman.compose.project=$PROJECT" -q 2>/dev/null || true)
    [ -z "$ids" ] || podman volume rm -f $ids >/dev/null 2>&1 || true
    podman network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
    if [ -z "${TOOLSMITH_COMPOSE_KEEP_IMAGES:-}" ] && [ ${#BUILT_IMAGES[@]} -gt 0 ]; then
      podman rmi -f "${BUILT_IMAGES[@]}" >/dev/null 2>&1 || true
      podman image prune -f >/dev/null 2>&1 || true
    fi
    local left; left=$(podman ps -a --filter "label=io.podman.compose.project=$PROJECT" -q; podman volume ls \
      --filter "label=io.podman.compose.project=$PROJECT" -q)
    [ -z "$left" ] && say "nothing of $PROJECT is left" || say "left over: $left"
  fi
  rm -rf "$TOOLSMITH_STATE_DIR" "$WORK/kafka-context"
  if [ "$code" -eq 0 ] && [ "$PASSED" = true ]; then
    printf '\ncompose-test passed: every image built, every service healthy, the demo and the restart check against containers.\n'
  fi
  exit "$code"
}

# --- 1. prerequisites ---------------------------------------------------------------------------------------
stage "1/8 prerequisites: podman, runc, podman-compose, mmdebstrap (and curl, jq)"
missing=()
for pkg in podman:podman runc:runc podman-compose:podman-compose mmdebstrap:mmdebstrap curl:curl jq:jq; do
  command -v "${pkg%%:*}" >/dev/null || missing+=("${pkg#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null \
    || fail "install ${missing[*]} (Debian: apt-get install ${missing[*]})"
  say "installing ${missing[*]} from Debian's packages..."
  { DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
      || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; }; } \
    >"$LOGS/apt.log" 2>&1 || { tail -n 20 "$LOGS/apt.log" >&2; fail "cannot install ${missing[*]}"; }
fi
say "$(podman --version), podman-compose $(dpkg-query -W -f '${Version}' podman-compose 2>/dev/null || echo '?')"
trap teardown EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
# A run that was killed may have left its stack behind: start from nothing.
podman-compose -p "$PROJECT" -f docker-compose.yml -f deploy/compose/docker-compose.local.yml down -v \
  >>"$LOGS/podman-compose.log" 2>&1 || true
podman network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true

# --- 2. jars ------------------------------------------------------------------------------------------------
stage "2/8 jars: the services' quarkus-app, the demo, the Kafka broker's jars"
need_build=false
for svc in "${SERVICES[@]}"; do [ -f "$svc/target/quarkus-app/quarkus-run.jar" ] || need_build=true; done
[ -f airlock-ui/target/classpath.txt ] && [ -f e2e/target/classpath.txt ] && [ -d e2e/target/classes ] || need_build=true
if $need_build; then
  say "building (./mvnw -B -q install -DskipTests; a few minutes on a fresh clone)..."
  ./mvnw -B -q install -DskipTests >"$LOGS/build.log" 2>&1 || { tail -n 30 "$LOGS/build.log" >&2; fail "the build failed"; }
else
  say "built already (the jars of the last ./mvnw install or verify)"
fi
# The broker's jars: the same Maven Central artifacts as the launcher's broker (deploy/local/kafka/pom.xml).
kafka_cp="$WORK/kafka-classpath.txt"
kafka_jars_present() { [ -s "$kafka_cp" ] && [ "$kafka_cp" -nt deploy/local/kafka/pom.xml ] && tr ':' '\n' <"$kafka_cp" | xargs ls >/dev/null 2>&1; }
if ! kafka_jars_present; then
  ./mvnw -B -q -f deploy/local/kafka/pom.xml dependency:build-classpath -Dmdep.outputFile="$kafka_cp" \
    >"$LOGS/kafka-classpath.log" 2>&1 || { tail -n 20 "$LOGS/kafka-classpath.log" >&2; fail "cannot resolve the Kafka jars"; }
fi
say "Kafka broker: $(tr ':' '\n' <"$kafka_cp" | wc -l) jars"

# --- 3. base image ------------------------------------------------------------------------------------------
stage "3/8 Debian base image (mmdebstrap, cached for a week)"
cache="${TOOLSMITH_COMPOSE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolsmith}"
mkdir -p "$cache"
tarball="$cache/debian-bookworm.tar"
# a week at most, so the images pick up Debian's security updates
if [ ! -s "$tarball" ] || [ -z "$(find "$tarball" -mtime -7 2>/dev/null)" ]; then
  say "mmdebstrap --variant=minbase --include=ca-certificates bookworm (about a minute)..."
  mmdebstrap --quiet --format=tar --variant=minbase --include=ca-certificates bookworm "$tarball.part" \
    >"$LOGS/mmdebstrap.log" 2>&1 || { tail -n 20 "$LOGS/mmdebstrap.log" >&2; rm -f "$tarball.part"; fail "mmdebstrap failed"; }
  mv "$tarball.part" "$tarball"
else
  say "cached: $tarball ($(( ($(date +%s) - $(stat -c %Y "$tarball")) / 3600 )) hours old)"
fi
podman import -q "$tarball" "$LOCAL/debian:bookworm" >/dev/null
BUILT_IMAGES+=("$LOCAL/debian:bookworm")

# --- 4. images ----------------------------------------------------------------------------------------------
stage "4/8 images (podman build; docker format, which keeps HEALTHCHECK)"
build() { # image, then podman build arguments
  local image="$1"; shift
  local started; started=$(date +%s)
  podman build -q --network=host --format docker -t "$image" "$@" >"$LOGS/build-${image//[\/:]/_}.log" 2>&1 \
    || { tail -n 30 "$LOGS/build-${image//[\/:]/_}.log" >&2; fail "building $image"; }
  BUILT_IMAGES+=("$image")
  say "$(printf '%-52s %4ss' "$image" $(( $(date +%s) - started )))"
}
build "$LOCAL/jre:17" --build-arg DEBIAN_BASE="$LOCAL/debian:bookworm" -f deploy/compose/Containerfile.jre deploy/compose
build "$LOCAL/jdk:17" --build-arg DEBIAN_BASE="$LOCAL/debian:bookworm" -f deploy/compose/Containerfile.jdk deploy/compose
build "$LOCAL/postgres:15" --build-arg DEBIAN_BASE="$LOCAL/debian:bookworm" -f deploy/compose/Containerfile.postgres deploy/compose
rm -rf "$WORK/kafka-context" && mkdir -p "$WORK/kafka-context/libs"
tr ':' '\n' <"$kafka_cp" | xargs -I{} cp {} "$WORK/kafka-context/libs/"
cp -r deploy/compose/kafka-bin "$WORK/kafka-context/bin"
build "$LOCAL/kafka:4.2.1" --build-arg JRE_IMAGE="$LOCAL/jre:17" -f deploy/compose/Containerfile.kafka "$WORK/kafka-context"
build "toolsmith/kafka-access:$TOOLSMITH_IMAGE_TAG" --build-arg KAFKA_IMAGE="$LOCAL/kafka:4.2.1" \
  --build-arg JDK_IMAGE="$LOCAL/jdk:17" -f deploy/docker/Dockerfile.kafka-access .
for svc in "${SERVICES[@]}"; do
  build "toolsmith/$svc:$TOOLSMITH_IMAGE_TAG" --build-arg BASE_IMAGE="$LOCAL/jre:17" --build-arg MODULE="$svc" \
    -f deploy/docker/Dockerfile.service .
done
say ""
say "image sizes:"
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E "^(localhost/toolsmith/|$LOCAL/)" \
  | grep -E ":($TOOLSMITH_IMAGE_TAG|17|15|4\.2\.1|bookworm) " | sort | while read -r name size; do
    say "$(printf '%-52s %s' "$name" "$size")"; done
for svc in "${SERVICES[@]}"; do
  user=$(podman image inspect -f '{{.Config.User}}' "toolsmith/$svc:$TOOLSMITH_IMAGE_TAG")
  health=$(podman image inspect -f '{{.Config.Healthcheck.Test}}' "toolsmith/$svc:$TOOLSMITH_IMAGE_TAG")
  [ "$user" = 185 ] || fail "toolsmith/$svc runs as '$user', not the non-root user 185"
  [[ "$health" == *"/q/health/ready"* ]] || fail "toolsmith/$svc declares no health check on /q/health/ready"
done
say "every service image runs as uid 185 and checks /q/health/ready"

# --- 5. credentials -----------------------------------------------------------------------------------------
stage "5/8 credentials (generated like ./toolsmith up's, in target/compose-test/state)"
rm -rf "$TOOLSMITH_STATE_DIR" && mkdir -p "$TOOLSMITH_STATE_DIR/logs" "$TOOLSMITH_STATE_DIR/pids"
ensure_credentials
ui_bcrypt=$(java -cp "airlock-ui/target/classes:$(cat airlock-ui/target/classpath.txt)" \
  dev.toolsmith.ui.security.PasswordHashTool "$UI_ADMIN_PASSWORD") || fail "cannot hash the UI admin password"
db_password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=' | head -c 32)
# What an operator puts in .env (deploy/docker/env.example); exported, as podman-compose reads the environment.
env_file="$TOOLSMITH_STATE_DIR/compose.env"
settings=(
  "TOOLSMITH_DB_PASSWORD=$db_password"
  "TOOLSMITH_ADMIN_KEY_SHA256=$("$TOOLSMITH_HOME/toolsmith" hash-key "$ADMIN_API_KEY")"
  "TOOLSMITH_PLANNER_KEY_SHA256=$("$TOOLSMITH_HOME/toolsmith" hash-key "$PLANNER_API_KEY")"
  "TOOLSMITH_SERVICE_KEY=$SERVICE_API_KEY"
  "TOOLSMITH_SERVICE_KEY_SHA256=$("$TOOLSMITH_HOME/toolsmith" hash-key "$SERVICE_API_KEY")"
  "TOOLSMITH_SECRETS_KEY=$SECRETS_KEY"
  "TOOLSMITH_UI_SESSION_KEY=$UI_SESSION_KEY"
  "TOOLSMITH_APPROVALS_SIGNING_KEY=$APPROVAL_SIGNING_KEY"
  "TOOLSMITH_APPROVALS_VERIFY_KEY=$APPROVAL_VERIFY_KEY"
  "TOOLSMITH_UI_ADMIN_BCRYPT=$ui_bcrypt"
  "TOOLSMITH_KAFKA_ADMIN_PASSWORD=$KAFKA_ADMIN_PASSWORD"
  "TOOLSMITH_KAFKA_LIBRARIAN_PASSWORD=$KAFKA_LIBRARIAN_PASSWORD"
  "TOOLSMITH_KAFKA_CAPABILITIES_MANAGER_PASSWORD=$KAFKA_CAPABILITIES_MANAGER_PASSWORD"
  "TOOLSMITH_KAFKA_ENGINEER_PASSWORD=$KAFKA_ENGINEER_PASSWORD"
  "TOOLSMITH_KAFKA_PLANNER_PASSWORD=$KAFKA_PLANNER_PASSWORD"
)
(umask 077 && printf '%s\n' "${settings[@]}" >"$env_file")
for setting in "${settings[@]}"; do export "${setting%%=*}=${setting#*=}"; done
say "${#settings[@]} settings of deploy/docker/env.example filled in ($env_file, mode 600)"

# --- 6. start -----------------------------------------------------------------------------------------------
# podman-compose 1.0.3 (Debian 12) starts services in depends_on order but does not wait for their conditions,
# and podman runs health checks only when asked (its timers need systemd): the containers are created by
# podman-compose, then started here stage by stage, exactly as the conditions in docker-compose.yml say.
last_logs() {
  printf '\n--- last log lines of %s:\n' "$1" >&2
  podman logs --tail "${2:-40}" "$(container "$1")" >&2 2>&1 || true
}

wait_healthy() { # services
  local started; started=$(date +%s)
  local pending=("$@")
  while [ ${#pending[@]} -gt 0 ]; do
    local still=()
    for svc in "${pending[@]}"; do
      podman healthcheck run "$(container "$svc")" >/dev/null 2>&1 || still+=("$svc")
    done
    pending=("${still[@]+"${still[@]}"}")
    [ ${#pending[@]} -eq 0 ] && break
    if [ $(( $(date +%s) - started )) -gt "$TIMEOUT" ]; then
      for svc in "${pending[@]}"; do
        say "$svc: $(podman inspect -f '{{.State.Status}} (exit code {{.State.ExitCode}}, restarts {{.RestartCount}})' \
          "$(container "$svc")" 2>/dev/null)"
        last_logs "$svc"
      done
      fail "not healthy after ${TIMEOUT}s: ${pending[*]}"
    fi
    sleep 2
  done
  say "healthy after $(( $(date +%s) - started ))s: $*"
}

wait_completed() { # a one-shot service
  local svc="$1" started; started=$(date +%s)
  while [ "$(podman inspect -f '{{.State.Status}}' "$(container "$svc")")" != exited ]; do
    if [ $(( $(date +%s) - started )) -gt "$TIMEOUT" ]; then last_logs "$svc"; fail "$svc did not finish in ${TIMEOUT}s"; fi
    sleep 1
  done
  local code; code=$(podman inspect -f '{{.State.ExitCode}}' "$(container "$svc")")
  [ "$code" = 0 ] || { last_logs "$svc"; fail "$svc exited with code $code"; }
  say "completed: $svc"
}

# Without systemd podman cannot schedule health checks (it says so on every start): wait_healthy runs them.
podman_start() {
  local svc
  for svc in "$@"; do
    podman start "$(container "$svc")" >>"$LOGS/podman.log" 2>&1 || { tail -n 5 "$LOGS/podman.log" >&2; fail "podman start $svc"; }
  done
}

start_stack() {
  local began; began=$(date +%s)
  # (podman-compose 1.0.3: "up -d --no-start" passes -d to podman create; without -d it only creates)
  compose up --no-build --no-start
  # podman-compose exits 0 even when podman refused a container: check that every service has one
  local svc
  for svc in postgres kafka kafka-access "${SERVICES[@]}"; do
    podman container exists "$(container "$svc")" || {
      grep -B2 -A3 '^Error' "$LOGS/podman-compose.log" | tail -n 20 >&2; fail "podman-compose created no container for $svc"; }
  done
  podman_start postgres kafka
  wait_healthy postgres kafka
  podman_start kafka-access
  wait_completed kafka-access
  podman_start librarian capabilities-manager engineer
  wait_healthy librarian capabilities-manager engineer
  podman_start airlock-ui
  wait_healthy airlock-ui
  UP_SECONDS=$(( $(date +%s) - began ))
}

stage "6/8 compose up: docker-compose.yml + deploy/compose/docker-compose.local.yml"
for port in "${PUBLISHED_PORTS[@]}"; do
  port_open "$port" && fail "port $port is taken (a platform from ./toolsmith up? stop it with ./toolsmith down)"
done
start_stack
FIRST_UP_SECONDS=$UP_SECONDS
say "every service healthy ${FIRST_UP_SECONDS}s after compose up (images built, volumes empty)"
for svc in "${SERVICES[@]}"; do
  user=$(podman exec "$(container "$svc")" id -u)
  [ "$user" = 185 ] || fail "$svc runs as uid $user"
  # cap_drop and no-new-privileges of docker-compose.yml, as the Kubernetes securityContext
  privileges=$(podman exec "$(container "$svc")" grep -E '^(CapEff|NoNewPrivs):' /proc/1/status | awk '{print $2}' | tr '\n' ' ')
  [ "$privileges" = "0000000000000000 1 " ] || fail "$svc runs with capabilities or may gain privileges (CapEff, NoNewPrivs: $privileges)"
done
say "the services run as uid 185 without capabilities or privilege escalation; $(podman exec "$(container postgres)" id -un) runs PostgreSQL, uid $(podman exec "$(container kafka)" id -u) Kafka"

# --- 7. the demo --------------------------------------------------------------------------------------------
# The demo's FX API must be reachable from the containers: it listens on the compose network's gateway, an
# address of this machine (a private one, which the local override lets the platform call).
gateway=$(podman network inspect "${PROJECT}_default" -f '{{range .Subnets}}{{.Gateway}}{{end}}')
[ -n "$gateway" ] || fail "no gateway address on network ${PROJECT}_default"
stage "7/8 ./toolsmith demo against the containers (Kafka 127.0.0.1:9092, services 127.0.0.1:8081-8083, FX API on $gateway)"
if ! "$TOOLSMITH_HOME/toolsmith" demo --api-host "$gateway" 2>&1 | tee "$LOGS/demo.log" | sed 's/^/   | /'; then
  for svc in librarian capabilities-manager engineer; do last_logs "$svc" 25; done
  fail "the demo failed"
fi

# --- 8. persistence -----------------------------------------------------------------------------------------
stage "8/8 restart: every container removed and re-created; catalog, approvals and aliases must survive"
api() { # port path: the body, or the status and body of a refusal on stderr
  local out code
  out=$(curl -sS -w '\n%{http_code}' -H "X-API-Key: $ADMIN_API_KEY" "http://127.0.0.1:$1$2") || return 1
  code=${out##*$'\n'}
  [ "$code" = 200 ] || { echo "GET :$1$2 -> $code ${out%$'\n'*}" >&2; return 1; }
  printf '%s\n' "${out%$'\n'*}"
}
# What the demo left, read through the services' APIs: the catalog (every tool with its status, version and
# allowed callers), each tool's approvals (its version history on the librarian, the usage policy approved
# with it on the capabilities manager) and the learned aliases. Nothing that changes by itself (health, times).
snapshot() {
  local tools approvals='{}' id details policy aliases
  tools=$(api 8081 '/tools?size=100') || return 1
  [ "$(jq '.total' <<<"$tools")" -le 100 ] || { echo "more than 100 tools: not a compose-test catalog" >&2; return 1; }
  for id in $(jq -r '.items[].id' <<<"$tools"); do
    details=$(api 8081 "/tools/$id") || return 1
    policy=$(api 8082 "/plugins/$id" | jq -c '.policy') || return 1
    approvals=$(jq -c --arg id "$id" --argjson d "$details" --argjson p "$policy" \
      '.[$id] = {allowedCallers: $d.allowedCallers, versions: [($d.versions // [])[] | {version, contentHash}], policy: $p}' \
      <<<"$approvals")
  done
  aliases=$(api 8082 /aliases) || return 1
  jq -S -n --argjson t "$tools" --argjson a "$approvals" --argjson l "$aliases" '{
    catalog: [$t.items[] | {id, verb, status, version, allowedCallers}],
    approvals: $a,
    aliases: [$l[] | {verb, toolId, targetVerb, confidence, learnedFrom}] | sort_by(.verb)}'
}
before=$(snapshot) || fail "cannot read the catalog, approvals and aliases"
jq -e '.aliases | map(.verb) | index("convert currency")' <<<"$before" >/dev/null \
  || fail "no learned alias for CONVERT_CURRENCY (\"convert currency\") after the demo"
jq -e '[.approvals[] | select(.policy.allowedCallers == ["planner"])] | length > 0' <<<"$before" >/dev/null \
  || fail "no approved tool with the demo's policy after the demo"
say "before: $(jq '.catalog | length' <<<"$before") tools in the catalog (internal plugins and the demo's), $(jq '[.approvals[] | select(.policy.allowedCallers == ["planner"])] | length' <<<"$before") approved with the demo's policy, $(jq '.aliases | length' <<<"$before") learned alias(es)"
compose down
say "containers removed; volumes kept: $(podman volume ls --filter "label=io.podman.compose.project=$PROJECT" --format '{{.Name}}' | tr '\n' ' ')"
start_stack
say "every service healthy again ${UP_SECONDS}s after compose up (data in the volumes)"
after=$(snapshot) || fail "cannot read the catalog, approvals and aliases after the restart"
if [ "$before" != "$after" ]; then
  diff <(echo "$before") <(echo "$after") | head -n 40 >&2
  fail "the catalog, approvals or aliases changed across the restart"
fi
say "after: the same catalog, approvals and aliases"
echo "compose up to healthy: ${FIRST_UP_SECONDS}s (empty volumes), ${UP_SECONDS}s (restart)" >"$WORK/timings.txt"
PASSED=true
