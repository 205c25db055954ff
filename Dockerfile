# syntax=docker/dockerfile:1
# Image of the ha_mcp add-on. The repository root is the build context.
#
# Since Supervisor 2026.04 BUILD_FROM is no longer injected, so it carries its own default:
# the multi-arch Home Assistant base image (Alpine, s6-overlay v3, bashio). The release
# workflow may still pass a per-arch value.
ARG BUILD_FROM=ghcr.io/home-assistant/base:3.24

# ---- build: bundle the server (scripts/build.ts), keep production dependencies only ----
FROM node:26-alpine AS build
WORKDIR /build
COPY package.json package-lock.json ./
# No install scripts: the `node` devDependency (Node 26 for tests and the bench on our glibc
# machines) would fetch a glibc binary that cannot run on Alpine and, first on the scripts' PATH,
# would break `npm run build`; this stage's own Node 26 builds it. No runtime dependency needs one.
RUN npm ci --no-audit --no-fund --ignore-scripts \
    && rm -f node_modules/.bin/node
COPY . .
# Our fixes to dependencies (patches/, applied by patch-package: the postinstall the install above skipped).
RUN npx --no patch-package \
    && npm run build \
    && npm prune --omit=dev --no-audit --no-fund \
    && mkdir -p ingress/public

# ---- run: Home Assistant base image ----
FROM ${BUILD_FROM}
ARG BUILD_VERSION=0.1.0
ARG BUILD_ARCH=amd64

# Node 26 comes from the build stage (the base image has none and Alpine's nodejs package
# lags behind); it is linked against musl and needs libstdc++/libgcc. su-exec lets run.sh,
# which must run as root for s6 and bashio, start Node as the unprivileged "mcp" user.
RUN apk add --no-cache libstdc++ libgcc su-exec \
    && addgroup -S mcp \
    && adduser -S -D -H -h /app -s /sbin/nologin -G mcp mcp
COPY --from=build /usr/local/bin/node /usr/local/bin/node
RUN node --version

# Owned by root and read-only for the mcp user (the AppArmor profile enforces the same). dist/ holds
# the server bundled with its dependencies; node_modules stays for anything resolved at run time.
WORKDIR /app
COPY --from=build /build/package.json ./package.json
COPY --from=build /build/node_modules ./node_modules
COPY --from=build /build/dist ./dist
COPY --from=build /build/ingress/public ./ingress/public
# The server's command line (Node flags, allocator settings), which run.sh executes.
COPY addon/start.sh ./addon/start.sh
COPY addon/run.sh /run.sh
RUN chmod 0755 /run.sh

ENV NODE_ENV=production
# 9583: MCP endpoint and /health; 9584: ingress page (reached only through the Supervisor).
EXPOSE 9583 9584

# /health answers 503 after 5 minutes without Home Assistant; the Supervisor's watchdog then
# restarts the add-on. busybox wget exits non-zero on any HTTP error status.
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD wget -q -T 5 -O /dev/null http://127.0.0.1:9583/health || exit 1

LABEL \
    io.hass.name="Home Assistant MCP Server" \
    io.hass.description="MCP server for Home Assistant" \
    io.hass.version="${BUILD_VERSION}" \
    io.hass.type="app" \
    io.hass.arch="${BUILD_ARCH}" \
    org.opencontainers.image.title="Home Assistant MCP Server" \
    org.opencontainers.image.version="${BUILD_VERSION}" \
    org.opencontainers.image.source="https://github.com/ha-mcp-addon/ha-mcp" \
    org.opencontainers.image.licenses="MIT"

# s6-overlay's /init (the base image's ENTRYPOINT) stays PID 1 and runs this script.
CMD ["/run.sh"]
