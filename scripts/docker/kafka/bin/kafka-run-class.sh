#!/usr/bin/env bash
# Runs a Kafka class on /opt/kafka/libs with the environment variables Kafka's own scripts read.
set -euo pipefail
# shellcheck disable=SC2086 # the *_OPTS variables are word lists
exec java ${KAFKA_HEAP_OPTS:--Xmx256m} ${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true} \
  ${KAFKA_LOG4J_OPTS:--Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties} ${KAFKA_OPTS:-} \
  -cp '/opt/kafka/libs/*' "$@"
