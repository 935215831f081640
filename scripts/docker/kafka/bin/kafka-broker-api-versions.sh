#!/usr/bin/env bash
# kafka-broker-api-versions.sh --bootstrap-server host:port (a health check: exits 0 when the broker answers).
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.BrokerApiVersionsCommand "$@"
