#!/usr/bin/with-contenv bashio
# shellcheck shell=bash
# Entrypoint of the add-on container (CMD ["/run.sh"]). with-contenv hands us the container
# environment (SUPERVISOR_TOKEN, TZ) that s6-overlay keeps for its services.
#
# This script runs as root on purpose: bashio and s6 expect root, and the /data volume is
# created by the Supervisor as root-owned. It only prepares /data, then drops to the
# unprivileged "mcp" user with su-exec (which keeps the environment, so the Supervisor
# token still reaches Node) before starting the server. Node itself never runs as root.
set -euo pipefail

readonly APP_USER="mcp"
readonly APP_DIR="${APP_DIR:-/app}"

export MCP_PORT=9583
# Must match ingress_port in config.yaml: the Supervisor's ingress proxy connects there.
export INGRESS_PORT=9584
export DATA_DIR=/data
export NODE_ENV=production

if bashio::config.has_value 'log_level'; then
  log_level="$(bashio::config 'log_level')"
  bashio::log.level "${log_level}"
  export LOG_LEVEL="${log_level}"
fi

# The token file is created with mode 0600 by the server, so the server's user must own /data.
mkdir -p "${DATA_DIR}"
chown -R "${APP_USER}:${APP_USER}" "${DATA_DIR}"

write_mode="off"
if bashio::config.true 'allow_write'; then
  write_mode="on"
fi
bashio::log.info "Starting the MCP server on port ${MCP_PORT} (ingress page on ${INGRESS_PORT}, writes ${write_mode})"

# The command line is addon/start.sh, the one place for the Node flags and the allocator settings
# (npm start and the bench run it too). Node is the image's, the binary the AppArmor profile confines.
export NODE_BIN=/usr/local/bin/node
cd "${APP_DIR}"
exec su-exec "${APP_USER}:${APP_USER}" /bin/sh "${APP_DIR}/addon/start.sh"
