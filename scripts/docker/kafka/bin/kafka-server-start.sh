#!/usr/bin/env bash
# kafka-server-start.sh server.properties: the broker in the foreground.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: kafka-server-start.sh server.properties" >&2; exit 1; }
export KAFKA_LOG4J_OPTS="${KAFKA_LOG4J_OPTS:--Dlog4j.configuration=file:/opt/kafka/config/log4j.properties}"
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G}"
exec "$(dirname "$0")/kafka-run-class.sh" kafka.Kafka "$@"
