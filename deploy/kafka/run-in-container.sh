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
# Clients outside the compose network (a planner, `./toolsmith demo`) cannot resolve "kafka": a second listener on
# 9094, published by compose, advertises TOOLSMITH_KAFKA_EXTERNAL_ADDRESS to them, with the same SCRAM logins and
# ACLs. The later keys replace the ones above (java.util.Properties keeps the last).
if [ -n "${TOOLSMITH_KAFKA_EXTERNAL_ADDRESS:-}" ]; then
  cat >> "$props" <<PROPS
listeners=CLIENT://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093,EXTERNAL://0.0.0.0:9094
advertised.listeners=CLIENT://kafka:9092,EXTERNAL://$TOOLSMITH_KAFKA_EXTERNAL_ADDRESS
listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:SASL_PLAINTEXT,EXTERNAL:SASL_PLAINTEXT
listener.name.external.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="$TOOLSMITH_KAFKA_ADMIN_PASSWORD";
PROPS
fi
if [ ! -f /var/lib/kafka/data/meta.properties ]; then
  /opt/kafka/bin/kafka-storage.sh format -t "$(/opt/kafka/bin/kafka-storage.sh random-uuid)" -c "$props" \
    --add-scram "$(kafka_format_scram admin "$TOOLSMITH_KAFKA_ADMIN_PASSWORD")" >/dev/null
fi
exec /opt/kafka/bin/kafka-server-start.sh "$props"
