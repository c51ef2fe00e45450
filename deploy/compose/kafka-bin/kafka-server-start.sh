#!/bin/bash
# kafka-server-start.sh of the local Kafka image: the broker of the jars, with the heap settings of Kafka's own
# script (KAFKA_HEAP_OPTS, default 1 GB) and KAFKA_OPTS added.
# shellcheck disable=SC2086 # both hold several options
exec java ${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G} ${KAFKA_OPTS:-} -Dorg.slf4j.simpleLogger.defaultLogLevel=info \
  -cp '/opt/kafka/libs/*' kafka.Kafka "$@"
