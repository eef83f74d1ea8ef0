#!/bin/sh
# Makes sure Node 18+ and npm are present for the emulated Pico's harness (rp2040js).
# A machine with neither gets Debian's nodejs and npm. A node from elsewhere (NodeSource, nvm)
# normally brings its own npm; Debian's npm package would pull Debian's nodejs over it, so a
# node without npm is reported, not "fixed".
set -eu
if command -v node >/dev/null 2>&1; then
    major=$(node -p 'process.versions.node.split(".")[0]')
    if [ "$major" -lt 18 ]; then
        echo "Node $major is too old for the emulated Pico: Node 18 or newer is needed"; exit 1
    fi
    if command -v npm >/dev/null 2>&1; then exit 0; fi
    echo "node ($(command -v node)) has no npm beside it; install the npm that came with it"
    echo "(Debian's npm package would replace this node with Debian's nodejs)"; exit 1
fi
if [ "$(id -u)" = "0" ]; then
    echo "Installing Debian's nodejs and npm for the emulated Pico"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
else
    echo "The emulated Pico needs Node 18+ and npm:  sudo apt-get install nodejs npm"; exit 1
fi
