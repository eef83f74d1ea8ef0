"""The tablet's presenters and controllers, without Kivy: what each screen shows (the board's
picture and its touch targets, the words of the top bar and the banner, the choices behind
each button, the card picker, the improvement chart, the statistics, the standings), how taps
become the rules core's actions (the game screen's interaction state, the new-game form), the
one door to the dice, the tablet's settings and its window's density.

Everything here is unit-tested without a window; ``companion_app/app`` holds the Kivy screens
and widgets that draw it (``tests/app/test_presenters_are_kivy_free.py`` keeps Kivy out).
"""
