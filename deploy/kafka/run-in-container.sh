#!/usr/bin/env bash
# The kafka service of docker-compose.yml: the apache/kafka image's broker, with Toolsmith's authentication
# and authorization (deploy/kafka/broker.sh) instead of the image's own configuration. Formats the storage on
# first start, with the admin's SCRAM credential; the other principals and the ACLs are set by the
# kafka-access service (deploy/kafka/KafkaAccess.java).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/broker.sh"
: "${TOOLSMITH_KAFKA_ADMIN_PASSWORD:?TOOLSMITH_KAFKA_ADMIN_PASSWORD is not set: the Kafka admin password (deploy/docker/env.example)}"
props=/tmp/server.properties
(umask 077 && kafka_broker_properties 0.0.0.0 kafka 9092 kafka 9093 /var/lib/kafka/data admin \
  "$TOOLSMITH_KAFKA_ADMIN_PASSWORD" > "$props")
if [ ! -f /var/lib/kafka/data/meta.properties ]; then
  /opt/kafka/bin/kafka-storage.sh format -t "$(/opt/kafka/bin/kafka-storage.sh random-uuid)" -c "$props" \
    --add-scram "$(kafka_format_scram admin "$TOOLSMITH_KAFKA_ADMIN_PASSWORD")" >/dev/null
fi
exec /opt/kafka/bin/kafka-server-start.sh "$props"
