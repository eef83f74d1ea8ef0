"""Child process of the cold-start benchmark: start a Kivy app, print the wall-clock time of its
first drawn frame, quit.

    python -m bench.app_probe bare|app

``bare`` is a hello-world Kivy window (one Label): the floor any Kivy app pays. ``app`` starts the
companion app the way ``python -m companion_app --virtual-dice`` does. In both, a callback put on
the Clock before the app runs waits for the window's first flip after the root widget is built,
prints ``READY <time.time()>`` and stops the app.
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


def bare() -> None:
    from kivy.app import App
    from kivy.uix.label import Label

    class Hello(App):
        def build(self) -> Label:
            return Label(text="Hello")

    _stop_at_first_frame()
    Hello().run()


def app() -> int:
    from companion_app.__main__ import main

    _stop_at_first_frame()
    return main(["--virtual-dice"])


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    which = sys.argv[1] if len(sys.argv) > 1 else "bare"
    if which == "bare":
        bare()
    else:
        sys.exit(app())
