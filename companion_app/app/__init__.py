"""The Kivy tablet app: one ``.py`` + ``.kv`` pair per screen; no game logic lives here."""
