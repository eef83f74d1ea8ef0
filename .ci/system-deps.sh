#!/bin/sh
# Makes sure the Debian packages the test suite needs are present.
# Installs them when missing and we are root; otherwise says exactly what to install.
set -eu
missing=""
for pkg in $TEST_DEBS; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $pkg"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ]; then
    echo "Installing Debian packages the tests need:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
    echo "The tests need these Debian packages:$missing"
    echo "Install them with:  sudo apt-get install$missing"
    exit 1
fi
