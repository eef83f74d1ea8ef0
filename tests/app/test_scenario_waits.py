"""A scripted step's wait for the app (the tour, the UI scenarios): it fails only after both its
frames and its seconds are spent, so cheap frames on an idle app do not cut short a wait for a
roll that arrives from the emulated box's thread, and a real hang is still reported."""

from __future__ import annotations

from companion_app.app.tour.waiting import WaitBudget


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def frames_until_spent(budget: WaitBudget, clock: FakeClock, seconds_per_frame: float) -> int:
    frames = 0
    while budget.spend_frame():
        frames += 1
        clock.now += seconds_per_frame
        assert frames < 1_000_000, "the budget never ran out"
    return frames + 1


def test_cheap_frames_wait_out_the_seconds() -> None:
    # About 1 ms frames (an idle app with no frame cap; 1/1024 s keeps the sums exact): 600
    # frames are 0.6 s, the wait lasts 60 s, 61,440 frames, and fails at the next one.
    clock = FakeClock()
    budget = WaitBudget(frames=600, seconds=60.0, clock=clock)
    start = clock.now
    assert frames_until_spent(budget, clock, 2**-10) == 61_441
    assert clock.now - start == 60.0


def test_slow_frames_wait_out_the_frames() -> None:
    # 0.5 s frames (software rendering on a loaded machine): 60 s pass after 120 frames, the
    # wait still gives the app its 600 frames.
    clock = FakeClock()
    budget = WaitBudget(frames=600, seconds=60.0, clock=clock)
    assert frames_until_spent(budget, clock, 0.5) == 600


def test_a_budget_is_spent_once_both_are() -> None:
    clock = FakeClock()
    budget = WaitBudget(frames=2, seconds=1.0, clock=clock)
    assert budget.spend_frame()  # 1 frame left, no time passed
    assert budget.spend_frame()  # frames spent, the second is not over
    clock.now += 1.0
    assert not budget.spend_frame()
