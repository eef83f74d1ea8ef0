#!/bin/sh
# Install the Catan companion as a kiosk on Raspberry Pi OS (64-bit), for the account that
# runs `sudo` (or KIOSK_USER): the app in a virtualenv in that user's data folder, the start
# script, the systemd unit, the dice box's udev rule. Run from a copy of the project:
#   sudo ./deploy/kiosk/install.sh
# Again after an update of the project (the journal and its games are kept).
set -eu

HERE="$(cd "$(dirname "$0")" && pwd)"
PROJECT="$(cd "$HERE/../.." && pwd)"
KIOSK_USER="${KIOSK_USER:-${SUDO_USER:-}}"
if [ "$(id -u)" -ne 0 ] || [ -z "$KIOSK_USER" ] || [ "$KIOSK_USER" = root ]; then
    echo "run it with sudo from the player's account: sudo $0" >&2
    exit 1
fi
HOME_DIR="$(getent passwd "$KIOSK_USER" | cut -d: -f6)"
DATA="$HOME_DIR/.local/share/catan-companion"

# Python, and SDL2 built with KMS/DRM (Debian's) for Kivy to be built against: Kivy's wheels
# bring an SDL2 for desktops. Building Kivy takes a while on a Pi (about 20 minutes on a Pi 4).
apt-get update
apt-get install -y python3-venv python3-dev build-essential pkg-config \
    libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev \
    libgles2-mesa-dev libdrm-dev libgbm-dev libmtdev-dev

# The groups the kiosk needs: the display (video, render), the touch screen (input), the
# dice box (dialout).
usermod -a -G video,render,input,dialout "$KIOSK_USER"

sudo -u "$KIOSK_USER" mkdir -p "$DATA"
sudo -u "$KIOSK_USER" python3 -m venv "$DATA/venv"
sudo -u "$KIOSK_USER" "$DATA/venv/bin/pip" install --upgrade pip
sudo -u "$KIOSK_USER" env USE_SDL2=1 KIVY_SDL2_PATH= \
    "$DATA/venv/bin/pip" install --no-binary kivy "$PROJECT"

install -m 0755 "$HERE/catan-kiosk" /usr/local/bin/catan-kiosk
install -m 0644 "$HERE/70-catan-dicebox.rules" /etc/udev/rules.d/70-catan-dicebox.rules
sed "s/^User=.*/User=$KIOSK_USER/" "$HERE/catan-companion.service" \
    > /etc/systemd/system/catan-companion.service
[ -e /etc/default/catan-companion ] || cat > /etc/default/catan-companion <<CONF
# Settings of the Catan companion kiosk (see /usr/local/bin/catan-kiosk).
# CATAN_ARGS="--display-mm 155x86"
CONF

udevadm control --reload-rules
udevadm trigger --subsystem-match=tty
systemctl daemon-reload
systemctl enable catan-companion.service
# Boot to the console, not a desktop: the kiosk is the display's only program.
systemctl set-default multi-user.target
systemctl restart catan-companion.service
echo "Installed. The app is on the display; journalctl -u catan-companion shows its log."
