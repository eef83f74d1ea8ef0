"""The screenshot tour: a planned game played through the real widgets, every screen and
dialog saved as a PNG and checked for layout problems (``python -m companion_app tour``).

The UI tests drive the app with the same :class:`~companion_app.app.tour.driver.ScenarioDriver`
and play the same planned game (:mod:`companion_app.app.tour.plan`).
"""
