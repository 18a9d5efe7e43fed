# tongate's container image: `docker build -t tongate .`, then
#   docker run -p 127.0.0.1:8080:8080 -p 127.0.0.1:8081:8080 -v tongate-data:/data tongate
# serves the two local chains at http://localhost:8080 (mainnet) and http://localhost:8081 (testnet): one listener
# in the container, the networks told apart by the Host the client sends. deploy/README.md says more.

# --- build: compile the TypeScript, keep the production dependencies only ---
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles its addon when no prebuilt binary matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json tsconfig.client-types.json ./
COPY src ./src
COPY bin ./bin
COPY global-configs ./global-configs
# The build's other inputs: the console's pages and the command's bundle step (scripts/bundle-cli.mjs).
COPY console ./console
COPY scripts/bundle-cli.mjs ./scripts/bundle-cli.mjs
# `npm ci` builds dist/ through the "prepare" script; the compilers are dev dependencies, dropped after.
RUN npm ci && npm prune --omit=dev && npm cache clean --force

# --- run: the compiled code and its dependencies, as an unprivileged user ---
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    TONGATE_DATA_DIR=/data \
    TONGATE_LISTEN=0.0.0.0:8080 \
    TONGATE_NETWORK=mainnet=http://localhost:8080,testnet=http://localhost:8081
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/global-configs ./global-configs
COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs
# The image's own user `node` (uid 1000) owns the data volume and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /healthcheck of the first configured network: 200 while its chain makes blocks (deploy/healthcheck.mjs).
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
# SIGTERM: tongate seals the block in progress, closes its stores and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/tongate.js"]
CMD ["start"]
