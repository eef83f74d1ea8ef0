"""Child process of the cold-start benchmark: start a Kivy app, print the wall-clock time of its
first drawn frame, quit.

    python -m bench.app_probe

A hello-world Kivy window (one Label): the floor any Kivy app pays. A callback put on the Clock
before the app runs waits for the window's first flip after the root widget is built, prints
``READY <time.time()>`` and stops the app.
"""

from __future__ import annotations

import os
import time


def _stop_at_first_frame() -> None:
    from kivy.app import App
    from kivy.clock import Clock

    def armed(_dt: float) -> None:
        from kivy.core.window import Window

        def flipped(*_args: object) -> None:
            Window.unbind(on_flip=flipped)
            print(f"READY {time.time():.6f}", flush=True)
            app = App.get_running_app()
            if app is not None:
                app.stop()

        Window.bind(on_flip=flipped)

    Clock.schedule_once(armed, 0)


def bare() -> None:
    from kivy.app import App
    from kivy.uix.label import Label

    class Hello(App):
        def build(self) -> Label:
            return Label(text="Hello")

    _stop_at_first_frame()
    Hello().run()


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    bare()
