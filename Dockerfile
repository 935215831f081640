# One image for the api and the ingestor (docker-compose.yml picks the command). docs/deploy.md.
# NODE_IMAGE: the official Node image of the current LTS line by default; machines that cannot pull
# build a stand-in from Debian and the npm registry (scripts/docker/images.sh passes it here).
ARG NODE_IMAGE=node:26-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the project's prepare (the build) needs the sources, copied below; no dependency
# needs its install script (package.json allowScripts: every one is denied, and why is in
# docs/deploy.md).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# scripts/build.mjs: SWC, per file (npm run build); the image then keeps production dependencies only.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# A larger young generation: the solver allocates per quote, and fewer scavenges keep p99 low
# (BENCHMARKS.md). kafkajs 2.2.4 schedules its request-queue check with a negative delay (-1 minus
# now, run as 1 ms), which Node 24 and later report once per process: the warning is silenced.
ENV NODE_OPTIONS="--max-semi-space-size=64 --disable-warning=TimeoutNegativeWarning"
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY scripts/healthcheck.mjs ./scripts/
# The synthetic recording `--replay replay-data/` plays (docker-compose.yml's ingestor).
COPY replay-data ./replay-data
# The embedded log (when KAFKA_BROKERS is unset) and the journal's requestId index (always) live
# under DATA_DIR. The directory is made and handed to the unprivileged user before VOLUME, so a new
# named or anonymous volume starts with that owner (a bind mount keeps the host's: make it
# writable by uid 1000).
ENV DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Ready (GET /ready 200) once the book cache has caught up with the log: docs/deploy.md. The ingestor
# service overrides this with `node scripts/healthcheck.mjs ingestor`.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 CMD ["node", "scripts/healthcheck.mjs", "api"]
# Docker sends SIGTERM, then SIGKILL 10 s later: the service's own deadline (SHUTDOWN_TIMEOUT_MS,
# 8 s by default) comes first and its last log line counts anything it could not finish.
STOPSIGNAL SIGTERM
CMD ["node", "dist/apps/api/src/main.js"]
