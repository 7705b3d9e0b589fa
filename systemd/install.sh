#!/usr/bin/env bash
# Install Table Companion as a service on Raspberry Pi OS (Bookworm or later):
#
#     sudo systemd/install.sh
#
# On the Pi, numpy, OpenCV, picamera2 and lgpio must come from apt: pip's numpy 2 breaks the
# apt-built picamera2. So the virtual environment sees the system's packages
# (--system-site-packages) and the companion is installed into it without pulling its
# heavy dependencies from PyPI; only the small pure-Python ones come from pip.
set -euo pipefail

[ "$(id -u)" -eq 0 ] || { echo "run me with sudo" >&2; exit 1; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/table-companion
USER_NAME=companion

echo "== apt packages"
apt-get update
apt-get install -y python3-venv python3-pip python3-picamera2 python3-opencv python3-numpy \
    python3-lgpio python3-gpiozero python3-serial python3-smbus2 i2c-tools

echo "== I2C on (for the LCD)"
if command -v raspi-config >/dev/null; then raspi-config nonint do_i2c 0; fi

echo "== service user $USER_NAME"
if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
for g in gpio video i2c dialout; do
    getent group "$g" >/dev/null && usermod -aG "$g" "$USER_NAME"
done

echo "== program in $PREFIX"
mkdir -p "$PREFIX"
cp "$SRC/README.md" "$PREFIX/"
[ -d "$PREFIX/venv" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --quiet --no-deps "$SRC"
"$PREFIX/venv/bin/pip" install --quiet "RPLCD>=1.3"
# Fail now, not at the table, if the venv cannot see what apt installed.
"$PREFIX/venv/bin/python" -c "import numpy, cv2, picamera2, gpiozero, serial, smbus2, RPLCD"

echo "== configuration in /etc/companion"
mkdir -p /etc/companion
if [ ! -f /etc/companion/config.toml ]; then
    cat > /etc/companion/config.toml <<'CONF'
# Table Companion settings: only what differs from the defaults
# (see companion/default_config.toml for every key and hardware/README.md for the wiring).
[daemon]
state_dir = "/var/lib/companion"

[players]
names = []
CONF
fi
"$PREFIX/venv/bin/companion" devices check --config /etc/companion/config.toml || \
    echo "(some devices did not answer: see above; the service starts anyway)"

echo "== service"
install -m 0644 "$SRC/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable --now companion.service
systemctl --no-pager status companion.service || true
echo "Done. Logs: journalctl -u companion -f"
