"""Private hands: a cover between players ("Hand the tablet to Blue — tap to show Blue's
cards"), then that player's cards, then "Done" covers them again. During the game only the
player who decides now may open theirs (nobody opens another's); once it is over, every hand.

The cards come from :func:`info_presenter.hand_view`, i.e. from ``Game.view_for(seat)``; the
cover shows no card, and leaving the screen always covers.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.popup import Popup

from companion_app.app.screens import load_kv
from companion_app.app.screens.info_screen import InfoScreen
from companion_app.app.widgets.expert_hint import show_hint
from companion_app.help_texts import progress_card_by_title, progress_help
from companion_app.i18n import current
from companion_app.i18n.current import _, render
from companion_app.presenters import info_presenter as I
from companion_app.presenters.board_picture import text_colour_on
from companion_app.rules.cards import Card, ProgressCard
from companion_app.rules.game import Game

load_kv(__file__)


class CardRulePopup(Popup):
    """A progress card's rule text (layout in hand.kv), told again in the table's language
    when it changes while the rule is open."""

    rule = StringProperty("")

    def __init__(self, card: ProgressCard, **kwargs: Any) -> None:
        self.card = card
        super().__init__(title=render(card.title), rule=progress_help(card), **kwargs)

    def retell(self) -> None:
        self.title, self.rule = render(self.card.title), progress_help(self.card)

    def on_open(self) -> None:
        current.listen(self.retell)

    def on_dismiss(self) -> None:
        current.forget(self.retell)


class HandScreen(InfoScreen):
    seat = NumericProperty(-1)
    """The player whose hand is offered; -1 until the screen is first shown."""
    covered = BooleanProperty(True)
    cover_text = StringProperty("")

    def on_pre_enter(self, *_args: object) -> None:
        game = self.game
        self.covered = True
        if game is not None:
            # The player who must decide now is the one most likely to want their cards.
            self.seat = I.seat_order(game)[0]
        super().on_pre_enter()

    def on_leave(self, *_args: object) -> None:
        self.cover()

    def show(self, game: Game) -> None:
        seats = I.open_hands(game)
        if self.seat not in seats:
            self.seat, self.covered = seats[0], True
        self.fill_seats(game, self.seat, "hand_seat", seats)
        self.cover_text = I.cover_words(game, self.seat)
        self._fill_cards(game)
        show_hint(self, game, self.seat, covered=self.covered)

    def pick(self, seat: int) -> None:
        """Another player's hand (once the game is over): covered first, whatever was shown."""
        game = self.game
        if game is None or seat not in I.open_hands(game):
            return
        self.seat = seat
        self.covered = True
        self.refresh()

    def reveal(self) -> None:
        self.covered = False
        self.refresh()

    def cover(self) -> None:
        self.covered = True
        self.ids.cards.clear_widgets()
        self.ids.progress.clear_widgets()
        self.ids.summary.text = ""
        if self.game is not None:
            show_hint(self, self.game, self.seat, covered=True)

    def show_rule(self, title: str) -> CardRulePopup | None:
        """The rule text of a progress card in the uncovered hand."""
        card = progress_card_by_title(title)
        if card is None or self.covered:
            return None
        popup = CardRulePopup(card)
        popup.open()
        return popup

    def _fill_cards(self, game: Game) -> None:
        cards = self.ids.cards
        progress = self.ids.progress
        cards.clear_widgets()
        progress.clear_widgets()
        if self.covered:
            self.ids.summary.text = ""
            return
        hand = I.hand_view(game, self.seat)
        for label, count in (*hand.resources, *hand.commodities):
            colour = I.CARD_COLOURS[label]
            tile = Factory.CardTile(
                text=f"[size=40sp][b]{count}[/b][/size]\n{render(Card.parse(label).words)}",
                fill=colour if count else (0.22, 0.24, 0.28, 1),
                color=text_colour_on(colour) if count else (0.6, 0.6, 0.6, 1),
            )
            tile.card = label
            tile.count = count
            cards.add_widget(tile)
        for title in hand.progress:
            colour = I.progress_colour(title)
            tile = Factory.ProgressTile(
                text=f"[b]{title}[/b]\n[size=15sp]" + _("tap: what it does") + "[/size]",
                fill=colour,
                color=text_colour_on(colour),
            )
            tile.card = title
            tile.bind(on_release=lambda t: self.show_rule(t.card))
            progress.add_widget(tile)
        if not hand.progress:
            progress.add_widget(
                Factory.Body(text=_("No progress cards."), color=(0.75, 0.75, 0.75, 1))
            )
        self.ids.summary.text = I.hand_summary(hand)
