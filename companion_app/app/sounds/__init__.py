"""The app's sound cues: small WAV files made by ``make_sounds.py`` (run it to remake them)."""
