# One image for the api and the ingestor (docker-compose.yml picks the command).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the project's prepare (the build) needs the sources, copied below. No dependency
# needs its own install script: ccxt's prints a banner, @scarf/scarf's sends telemetry, and esbuild,
# @swc/core and bufferutil ship their binaries in platform packages or prebuilds.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# scripts/build.mjs: SWC, per file (npm run build); the image then keeps production dependencies only.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# A larger young generation: the solver allocates per quote, and fewer scavenges keep p99 low (BENCHMARKS.md).
ENV NODE_OPTIONS=--max-semi-space-size=64
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The embedded log's data directory when KAFKA_BROKERS is unset.
ENV DATA_DIR=/data
VOLUME ["/data"]
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
