"""A domestic trade offer (player on turn to one other player): what to give, what to ask for,
and to whom, with the rules core's verdict on the offer in its own words.

The panel only counts cards; ``Game.illegal_reason`` decides whether the offer may be made, and
the other player answers it at the tablet (the ``trade_response`` prompt).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion_app.app.screens import load_kv
from companion_app.i18n import current
from companion_app.i18n.current import _, render
from companion_app.presenters import wording as W
from companion_app.rules.actions import OfferTrade
from companion_app.rules.cards import CARD_KINDS, Card
from companion_app.rules.game import Game


class TradePanel(ModalView):
    """Counters for giving and asking, seat buttons, and Offer (enabled only for a legal offer)."""

    verdict = StringProperty("")
    legal = BooleanProperty(False)
    title = StringProperty("")
    wide = BooleanProperty(True)
    """Room for two cards to a row (a landscape window)."""

    def __init__(self, game: Game, on_offer: Callable[[OfferTrade], None], **kwargs: Any):
        from kivy.core.window import Window

        self.wide = Window.width >= dp(WIDE_DP)
        super().__init__(**kwargs)
        for _half in range(2 if self.wide else 1):
            for _column in range(3):
                self.ids.header.add_widget(Factory.TradeHeader())
        self.game = game
        self.on_offer = on_offer
        self.player = game.active
        self.give = [0] * CARD_KINDS
        self.take = [0] * CARD_KINDS
        others = [s for s in range(game.player_count) if s != self.player]
        self.to = others[0]
        rows = self.ids.rows
        self.counts: dict[tuple[str, int], Any] = {}
        for card in Card:
            # No "(you hold N)": the tablet lies open on the table.
            cell = Factory.TradeCell()
            cell.card = card  # the card's name is read in :meth:`retell`
            rows.add_widget(cell)
            for side in ("give", "take"):
                rows.add_widget(self._counter(side, card))
        for seat in others:
            button = Factory.ChoiceButton(group="trade_to")
            button.seat = seat
            button.state = "down" if seat == self.to else "normal"
            button.bind(on_release=lambda b: self.choose_to(b.seat))
            self.ids.seats.add_widget(button)
        self.retell()

    def retell(self) -> None:
        """The dialog's words in the table's language (read again after a switch while open;
        what is offered stays)."""
        names = self.game.config.names
        self.title = _("{player} offers a trade").format(player=names[self.player])
        words = (_("card"), _("you give"), _("you ask for"))
        for index, header in enumerate(reversed(self.ids.header.children)):
            header.text = words[index % len(words)]
        for cell in self.ids.rows.children:
            if isinstance(getattr(cell, "card", None), Card):
                cell.text = render(cell.card.words)
        for button in self.ids.seats.children:
            button.text = _("To {player}").format(player=names[button.seat])
        self.update()

    def on_open(self) -> None:
        current.listen(self.retell)

    def on_dismiss(self) -> None:
        current.forget(self.retell)

    def _counter(self, side: str, card: Card) -> Any:
        box = Factory.TradeCounter()
        box.ids.minus.bind(on_release=lambda _b: self.change(side, card, -1))
        box.ids.plus.bind(on_release=lambda _b: self.change(side, card, 1))
        box.ids.minus.name = f"{side}_{card.label}_minus"
        box.ids.plus.name = f"{side}_{card.label}_plus"
        self.counts[(side, card)] = box.ids.count
        return box

    def change(self, side: str, card: Card, delta: int) -> None:
        counts = self.give if side == "give" else self.take
        counts[card] = max(0, counts[card] + delta)
        self.update()

    def choose_to(self, seat: int) -> None:
        self.to = seat
        for button in self.ids.seats.children:
            button.state = "down" if button.seat == seat else "normal"
        self.update()

    @property
    def offer(self) -> OfferTrade:
        return OfferTrade(self.player, self.to, tuple(self.give), tuple(self.take))

    def update(self) -> None:
        for (side, card), label in self.counts.items():
            label.text = str((self.give if side == "give" else self.take)[card])
        offer = self.offer
        self.legal = self.game.is_legal(offer)
        self.verdict = W.offer_words(self.game, offer)

    def send(self) -> None:
        if self.legal:
            offer = self.offer
            self.dismiss()
            self.on_offer(offer)


WIDE_DP = 900
"""The window width from which the dialog puts two cards to a row."""

load_kv(__file__)
