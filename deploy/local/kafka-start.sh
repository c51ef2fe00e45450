#!/usr/bin/env bash
# Starts a standalone single-node KRaft Kafka broker from Maven Central jars (no Docker, no download
# of a Kafka distribution). Idempotent: if the broker this script started is running, it does nothing.
# Settings: TOOLSMITH_KAFKA_PORT (9092), TOOLSMITH_KAFKA_CONTROLLER_PORT (9093), TOOLSMITH_STATE_DIR.
# Clients authenticate (SASL/SCRAM-SHA-512) with the passwords in $TOOLSMITH_STATE_DIR/credentials.env.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/common.sh"

port="${TOOLSMITH_KAFKA_PORT:-9092}"
cport="${TOOLSMITH_KAFKA_CONTROLLER_PORT:-9093}"
kdir="$STATE_DIR/kafka"
marker="kafka.Kafka $kdir/server.properties"
classpath_file="$kdir/classpath.txt"

# The principals' SCRAM users and ACLs (deploy/kafka/KafkaAccess.java), applied again whenever that table or a
# password in credentials.env changed since they were last applied to this broker, also to a running one: a
# changed password is a rotation (restart the service that uses it; docs/operations.md).
apply_access() {
  local access="$TOOLSMITH_HOME/deploy/kafka/KafkaAccess.java" applied
  applied=$( (cat "$access"; grep '^KAFKA_' "$CREDENTIALS") | sha256sum | cut -d' ' -f1)
  [ "$(cat "$kdir/access.sha256" 2>/dev/null)" = "$applied" ] && return 0
  TOOLSMITH_KAFKA_ADMIN_PASSWORD="$KAFKA_ADMIN_PASSWORD" \
  TOOLSMITH_KAFKA_LIBRARIAN_PASSWORD="$KAFKA_LIBRARIAN_PASSWORD" \
  TOOLSMITH_KAFKA_CAPABILITIES_MANAGER_PASSWORD="$KAFKA_CAPABILITIES_MANAGER_PASSWORD" \
  TOOLSMITH_KAFKA_ENGINEER_PASSWORD="$KAFKA_ENGINEER_PASSWORD" \
  TOOLSMITH_KAFKA_PLANNER_PASSWORD="$KAFKA_PLANNER_PASSWORD" \
    java -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$(cat "$classpath_file")" "$access" \
      --bootstrap-server "127.0.0.1:$port" >>"$LOG_DIR/kafka-access.log" 2>&1 \
    || { echo "cannot set the Kafka users and ACLs, see $LOG_DIR/kafka-access.log" >&2; exit 1; }
  echo "$applied" > "$kdir/access.sha256"
}

if is_running kafka "$marker"; then
  ensure_credentials
  apply_access
  echo "Kafka already running on 127.0.0.1:$port (pid $(cat "$PID_DIR/kafka.pid"))"
  exit 0
fi
if port_open "$port"; then
  echo "port $port is taken by a process this launcher did not start; set TOOLSMITH_KAFKA_PORT" >&2
  exit 1
fi

mkdir -p "$kdir/data"
if [ ! -s "$classpath_file" ]; then
  echo "resolving the Kafka broker classpath from Maven Central (first run only)..."
  "$TOOLSMITH_HOME/mvnw" -B -q -f "$here/kafka/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$classpath_file" >"$LOG_DIR/kafka-classpath.log" 2>&1 \
    || { echo "cannot resolve the Kafka classpath, see $LOG_DIR/kafka-classpath.log" >&2; exit 1; }
fi

# Authenticated and authorized (SASL/SCRAM-SHA-512, ACLs): deploy/kafka/broker.sh. The passwords live in the
# state folder's credentials.env, generated on first use.
source "$TOOLSMITH_HOME/deploy/kafka/broker.sh"
ensure_credentials
formatted_before_sasl() { [ -f "$kdir/data/meta.properties" ] && [ ! -f "$kdir/sasl" ]; }
if formatted_before_sasl; then
  echo "the broker data in $kdir/data was formatted before Kafka authentication and has no admin user;" \
    "stop the platform and delete that folder (the services create their topics again at start)" >&2
  exit 1
fi
(umask 077 && kafka_broker_properties 127.0.0.1 127.0.0.1 "$port" 127.0.0.1 "$cport" "$kdir/data" \
  admin "$KAFKA_ADMIN_PASSWORD" > "$kdir/server.properties")

cp="$(cat "$classpath_file")"
if [ ! -f "$kdir/data/meta.properties" ]; then
  cluster_id=$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
  # The format command prints the credential's salted keys: kept out of the log.
  java -cp "$cp" kafka.tools.StorageTool format -t "$cluster_id" -c "$kdir/server.properties" \
    --add-scram "$(kafka_format_scram admin "$KAFKA_ADMIN_PASSWORD")" >/dev/null 2>"$LOG_DIR/kafka-format.log" \
    || { echo "cannot format the Kafka storage, see $LOG_DIR/kafka-format.log" >&2; exit 1; }
  touch "$kdir/sasl"
  rm -f "$kdir/access.sha256"
fi

# TOOLSMITH_KAFKA_JAVA_OPTS adds JVM options, e.g. a GC log (docs/operations.md).
# Promoting what survives one young collection, instead of copying it between survivor spaces up to 15
# times, took the broker's young pauses from 8-10 to ~6 ms at 1,000 steps/s on two cores (the survivors are
# ~4 MB a collection; old space grows ~1 MB a collection and is reclaimed by mixed collections).
# shellcheck disable=SC2086 # it holds several options
nohup java -Xms256m -Xmx512m -XX:MaxTenuringThreshold=1 ${TOOLSMITH_KAFKA_JAVA_OPTS:-} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "$cp" kafka.Kafka "$kdir/server.properties" >>"$LOG_DIR/kafka.log" 2>&1 &
echo $! > "$PID_DIR/kafka.pid"

started=false
for _ in $(seq 1 150); do
  if port_open "$port"; then
    started=true
    break
  fi
  is_running kafka "$marker" || { echo "Kafka exited during start-up, see $LOG_DIR/kafka.log" >&2; exit 1; }
  sleep 0.2
done
$started || { echo "Kafka did not open port $port within 30 s, see $LOG_DIR/kafka.log" >&2; exit 1; }

apply_access
echo "Kafka started on 127.0.0.1:$port (pid $(cat "$PID_DIR/kafka.pid"), log $LOG_DIR/kafka.log)"
