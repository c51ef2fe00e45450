#!/usr/bin/env bash
# Stops the broker kafka-start.sh started, and nothing else. Safe to run when it is not running.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/common.sh"
stop_process kafka "kafka.Kafka $STATE_DIR/kafka/server.properties" 30
