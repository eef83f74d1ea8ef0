"""The terms a "why not" reason names: cards counted, progress cards by their title.

Message ids only (:mod:`messages`), so each reader reads them in their own language.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from companion_app.rules.messages import Msg, pmsg


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
