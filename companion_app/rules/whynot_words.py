"""The terms a "why not" reason names: cards counted, progress cards by their title, the kinds
of action asked about, and what each progress card needs besides being held (:data:`CARD_NEEDS`).

Message ids only (:mod:`messages`), so each reader reads them in their own language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion_app.rules.actions import (
    Action,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuildShip,
    BuyImprovement,
    ChasePirate,
    ChaseRobber,
    DisplaceKnight,
    MoveKnight,
    MoveShip,
    OfferTrade,
    PlayProgress,
    PromoteKnight,
)
from companion_app.rules.cards import PROGRESS_WORDS, Card, ProgressCard
from companion_app.rules.messages import N_, Msg, pmsg
from companion_app.rules.state import GameState


def counted_card(card: Card, count: int) -> Msg:
    """ "2 grain" in the reader's language (the card's own :meth:`Card.counted`)."""
    return card.counted(count)


def cards_words(
    counts: Sequence[int], kinds: Sequence[Card] | None = None
) -> Msg | tuple[Msg, ...]:
    """The cards of ``counts`` (only ``kinds``, if given) as a list the reader's language joins;
    "none" for no card, in its own context: it follows "you have", which Czech and Polish say
    with a negation ("nemáš nic"), so they name 0 cards instead."""
    listed = tuple(
        counted_card(card, counts[card])
        for card in (kinds if kinds is not None else tuple(Card))
        if counts[card]
    )
    return listed or pmsg("held", "none")


PROGRESS_TITLES: dict[ProgressCard, Msg] = PROGRESS_WORDS
"""The progress cards' names, as the cards declare them (:data:`cards.PROGRESS_WORDS`)."""


ASKED: dict[type[Action], Msg] = {
    BuildRoad: pmsg("action", "Road"),
    BuildSettlement: pmsg("action", "Settlement"),
    BuildCity: pmsg("action", "City"),
    BuildCityWall: pmsg("action", "City wall"),
    BuildKnight: pmsg("action", "Recruit knight"),
    ActivateKnight: pmsg("action", "Activate knight"),
    PromoteKnight: pmsg("action", "Promote knight"),
    MoveKnight: pmsg("action", "Move knight"),
    DisplaceKnight: pmsg("action", "Displace knight"),
    ChaseRobber: pmsg("action", "Chase robber"),
    BuyImprovement: pmsg("action", "Improve city"),
    PlayProgress: pmsg("action", "Progress card"),
    BankTrade: pmsg("action", "Bank trade"),
    OfferTrade: pmsg("action", "Offer a player"),
}
"""The kinds of action a player asks about on their turn, with their names: what the turn
offers besides rolling and ending it, in the order the tablet's action bar shows them (its Why
not? rows read the kinds from here, under the bar's own button titles)."""


SEA_ASKED: dict[type[Action], Msg] = {
    BuildShip: pmsg("action", "Ship"),
    MoveShip: pmsg("action", "Move ship"),
    ChasePirate: pmsg("action", "Chase pirate"),
}
"""The kinds a player asks about on a sea board only (§13), after :data:`ASKED`."""


ROBBER_LOCKED = N_("The robber stays on the desert until the first attack (§8).")
"""The robber's lock before the first attack, a reason of the robber's chase and the Bishop."""


@dataclass(frozen=True, slots=True)
class CardNeed:
    """What one progress card needs besides being held at its moment."""

    text: str
    everyone_sees: Callable[[GameState, int], bool] | None = None
    """True when the need fails in a way the whole table sees (it holds whatever the hand)."""
    sea_text: str = ""
    """The need on a sea board, where ships change it (§13.9)."""

    def words(self, game: GameState) -> str:
        return self.sea_text if self.sea_text and game.topology.has_sea else self.text


CARD_NEEDS: dict[ProgressCard, CardNeed] = {
    ProgressCard.ALCHEMIST: CardNeed(N_("An Alchemist has already fixed the dice of this roll.")),
    ProgressCard.CRANE: CardNeed(
        N_("The Crane takes 1 commodity off a city improvement: you cannot pay even that.")
    ),
    ProgressCard.ENGINEER: CardNeed(
        N_("The Engineer builds a city wall: you need a city without one, 3 walls at most.")
    ),
    ProgressCard.MEDICINE: CardNeed(
        N_("Medicine makes a settlement a city for 2 ore and 1 grain: you have not that much.")
    ),
    ProgressCard.ROAD_BUILDING: CardNeed(
        N_("Road Building needs a free edge for a road."),
        sea_text=N_("Road Building needs a free edge for a road or a ship (§13.9)."),
    ),
    ProgressCard.SMITH: CardNeed(N_("The Smith promotes knights: none of yours can be promoted.")),
    ProgressCard.BISHOP: CardNeed(ROBBER_LOCKED, lambda g, p: not g.robber_unlocked),
    ProgressCard.DESERTER: CardNeed(
        N_("The Deserter needs an opponent with a knight on the board.")
    ),
    ProgressCard.DIPLOMAT: CardNeed(
        N_("The Diplomat needs an open road to remove."),
        sea_text=N_("The Diplomat needs an open road or an open ship to remove (§13.9)."),
    ),
    ProgressCard.INTRIGUE: CardNeed(
        N_("Intrigue needs an opponent's knight on an intersection your roads touch."),
        sea_text=N_(
            "Intrigue needs an opponent's knight on an intersection your roads or ships touch "
            "(§13.9)."
        ),
    ),
    ProgressCard.SPY: CardNeed(
        N_("The Spy needs an opponent holding a progress card it may take.")
    ),
    ProgressCard.MASTER_MERCHANT: CardNeed(
        N_("The Master Merchant needs an opponent with more victory points who holds cards.")
    ),
    ProgressCard.MERCHANT: CardNeed(
        N_("The Merchant goes on a land hex next to one of your settlements or cities.")
    ),
}
