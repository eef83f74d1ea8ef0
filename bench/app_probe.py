"""Child process of the cold-start benchmark: start a Kivy app, print the wall-clock time of its
first drawn frame, quit.

    python -m bench.app_probe [WIDTHxHEIGHT]

A hello-world Kivy window (one Label), of the app's size when given (the frames of a larger
window take longer to draw): the floor any Kivy app pays. A callback put on the Clock
before the app runs waits for the window's first flip after the root widget is built, prints
``READY <time.time()>`` and stops the app.
"""

from __future__ import annotations

import os
import sys
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


def bare(size: str | None = None) -> None:
    if size:
        from kivy.config import Config

        width, height = size.split("x")
        Config.set("graphics", "width", width)
        Config.set("graphics", "height", height)
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
    bare(sys.argv[1] if len(sys.argv) > 1 else None)
