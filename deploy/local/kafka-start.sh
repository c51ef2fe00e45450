#!/usr/bin/env bash
# Starts a standalone single-node KRaft Kafka broker from Maven Central jars (no Docker, no download
# of a Kafka distribution). Idempotent: if the broker this script started is running, it does nothing.
# Settings: TOOLSMITH_KAFKA_PORT (9092), TOOLSMITH_KAFKA_CONTROLLER_PORT (9093), TOOLSMITH_STATE_DIR.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/common.sh"

port="${TOOLSMITH_KAFKA_PORT:-9092}"
cport="${TOOLSMITH_KAFKA_CONTROLLER_PORT:-9093}"
kdir="$STATE_DIR/kafka"
marker="kafka.Kafka $kdir/server.properties"

if is_running kafka "$marker"; then
  echo "Kafka already running on 127.0.0.1:$port (pid $(cat "$PID_DIR/kafka.pid"))"
  exit 0
fi
if port_open "$port"; then
  echo "port $port is taken by a process this launcher did not start; set TOOLSMITH_KAFKA_PORT" >&2
  exit 1
fi

mkdir -p "$kdir/data"
classpath_file="$kdir/classpath.txt"
if [ ! -s "$classpath_file" ]; then
  echo "resolving the Kafka broker classpath from Maven Central (first run only)..."
  "$TOOLSMITH_HOME/mvnw" -B -q -f "$here/kafka/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$classpath_file" >"$LOG_DIR/kafka-classpath.log" 2>&1 \
    || { echo "cannot resolve the Kafka classpath, see $LOG_DIR/kafka-classpath.log" >&2; exit 1; }
fi

cat > "$kdir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$kdir/data
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
# The log cleaner's offset map lives on the heap (128 MB by default): in a 512 MB heap it kept G1 starting a
# marking cycle every other young collection. 16 MB cleans the small compacted topics of one machine.
log.cleaner.dedupe.buffer.size=16777216
PROPS

cp="$(cat "$classpath_file")"
if [ ! -f "$kdir/data/meta.properties" ]; then
  cluster_id=$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
  java -cp "$cp" kafka.tools.StorageTool format -t "$cluster_id" -c "$kdir/server.properties" \
    >>"$LOG_DIR/kafka.log" 2>&1
fi

# TOOLSMITH_KAFKA_JAVA_OPTS adds JVM options, e.g. a GC log (docs/operations.md).
# Promoting what survives one young collection, instead of copying it between survivor spaces up to 15
# times, took the broker's young pauses from 8-10 to ~6 ms at 1,000 steps/s on two cores (the survivors are
# ~4 MB a collection; old space grows ~1 MB a collection and is reclaimed by mixed collections).
# shellcheck disable=SC2086 # it holds several options
nohup java -Xms256m -Xmx512m -XX:MaxTenuringThreshold=1 ${TOOLSMITH_KAFKA_JAVA_OPTS:-} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "$cp" kafka.Kafka "$kdir/server.properties" >>"$LOG_DIR/kafka.log" 2>&1 &
echo $! > "$PID_DIR/kafka.pid"

for _ in $(seq 1 150); do
  if port_open "$port"; then
    echo "Kafka started on 127.0.0.1:$port (pid $(cat "$PID_DIR/kafka.pid"), log $LOG_DIR/kafka.log)"
    exit 0
  fi
  is_running kafka "$marker" || { echo "Kafka exited during start-up, see $LOG_DIR/kafka.log" >&2; exit 1; }
  sleep 0.2
done
echo "Kafka did not open port $port within 30 s, see $LOG_DIR/kafka.log" >&2
exit 1
