"""The APK's entry point: python-for-android runs ``main.py`` at the top of the app's files."""

import sys

from companion_app.app.android_start import main

sys.exit(main())
