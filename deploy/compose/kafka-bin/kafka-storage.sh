#!/bin/bash
# kafka-storage.sh of the local Kafka image: the StorageTool of the broker jars (format, random-uuid).
exec java -Xmx256m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp '/opt/kafka/libs/*' kafka.tools.StorageTool "$@"
