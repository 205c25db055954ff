#!/bin/sh
# The server's one command line, and the only place its Node flags and allocator settings are
# written: `npm start`, the add-on (addon/run.sh, as the mcp user), `npm run bench` and
# test/system/build.test.ts all run this file. Why each setting: docs/performance.md.
# Arguments go to node before the entry (the bench's profiler flags); NODE_BIN names the node binary
# (the add-on's /usr/local/bin/node, the one its AppArmor profile confines), else node on the PATH.
set -eu
cd "$(dirname "$0")/.." || exit 1
export MALLOC_ARENA_MAX=2
export MALLOC_MMAP_THRESHOLD_=65536
exec "${NODE_BIN:-node}" \
  --max-old-space-size=256 \
  --optimize-for-size \
  --v8-pool-size=2 \
  --no-maglev \
  --no-incremental-marking-task \
  "$@" dist/app/server.js
