# Gleaner: the API (and, with --role worker, background workers) on Debian with its Chromium, on
# Node 24, the version CI tests (docs/node-versions.md).
FROM node:24-bookworm-slim

# Debian's Chromium for the browser engine (never downloaded by npm), plus fonts for screenshots.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-cjk ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY engines ./engines
COPY plugins ./plugins
COPY schema ./schema
# npm start compiles the TypeScript once (src/runtime/start.mjs); do it now, while /app is writable.
RUN node src/runtime/start.mjs --build-only

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    CHROMIUM_PATH=/usr/bin/chromium
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Every role answers it on PORT: the API with everything else, --role worker with its health endpoints only.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "src/runtime/start.mjs", "--role", "api"]
