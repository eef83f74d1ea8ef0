"""Statistics as a picture: the 2–12 sums rolled against what fair dice give, the event die's
faces, each player's production, the attacks so far and the dice's fairness at a glance (the
chi-square p-value and its verdict, from :mod:`companion_app.game_stats`)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, StringProperty

from companion_app.app.screens import load_kv
from companion_app.app.screens.info_screen import InfoScreen
from companion_app.app.widgets.histogram import Histogram  # noqa: F401  (used in kv)
from companion_app.i18n.current import _
from companion_app.presenters import info_presenter as I
from companion_app.rules.game import Game

load_kv(__file__)

ATTACKS_SHOWN = 5
"""The latest attacks listed (one line each)."""


class StatisticsScreen(InfoScreen):
    fairness = StringProperty("")
    verdict_colour = ListProperty([1, 1, 1, 1])
    sums_title = StringProperty("")

    def show(self, game: Game) -> None:
        view = I.statistics_view(game)
        self.view = view
        self.ids.sums.bars = list(view.sums)
        self.ids.events.bars = list(view.events)
        self.fairness = view.fairness
        self.sums_title = view.sums_title
        self.verdict_colour = list(view.verdict_colour)
        production = self.ids.production
        production.clear_widgets()
        most = max((row.total for row in view.production), default=0)
        # Five or six players' bars are lower, and four's on a low window (800x480): every one
        # fits beside the dice on 480 dp.
        many = len(view.production) > (4 if self.height >= dp(560) else 3)
        production.spacing = dp(2) if many else dp(6)
        for row in view.production:
            bar = Factory.ProductionBar(
                text=f"[b]{row.name}[/b] {row.total}",
                value=row.total,
                most=most,
                bar=row.colour,
                height=dp(28) if many else dp(44),
                font_size=sp(16) if many else sp(19),
            )
            bar.row = row
            production.add_widget(bar)
        attacks = self.ids.attacks
        attacks.clear_widgets()
        shown = view.attacks[-ATTACKS_SHOWN:]
        # Only the latest fit: the title says so, so the count and the list agree.
        title = _("Barbarian attacks: {count}").format(count=len(view.attacks))
        if len(shown) < len(view.attacks):
            title += " " + _("(the last {count})").format(count=len(shown))
        self.ids.attacks_title.text = title
        for line in shown:
            attacks.add_widget(Factory.Body(text=line, font_size="16sp"))
        if not view.attacks:
            attacks.add_widget(Factory.Body(text=_("None yet."), color=(0.75, 0.75, 0.75, 1)))
