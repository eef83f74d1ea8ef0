#!/bin/sh
# Build the Android APK (debug) on a machine with internet, buildozer and its Android
# requirements (docs/android.md): the app's files are staged from a built wheel, so the APK holds
# exactly what an installed package holds (the dice box firmware included), plus main.py.
set -eu

HERE="$(cd "$(dirname "$0")" && pwd)"
PROJECT="$(cd "$HERE/../.." && pwd)"
BUILD="$HERE/build"
PYTHON="${PYTHON:-python3}"

rm -rf "$BUILD/src" "$BUILD/wheel"
mkdir -p "$BUILD/src" "$BUILD/wheel"
"$PYTHON" -m pip wheel --no-deps -w "$BUILD/wheel" "$PROJECT"
"$PYTHON" -m zipfile -e "$BUILD"/wheel/catan_companion-*.whl "$BUILD/src"
rm -rf "$BUILD"/src/*.dist-info
cp "$HERE/main.py" "$BUILD/src/main.py"
cp "$HERE/buildozer.spec" "$BUILD/buildozer.spec"
cd "$BUILD"
buildozer android debug "$@"
echo "APK: $(ls "$BUILD"/bin/*.apk)"
