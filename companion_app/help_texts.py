"""Rule texts shown where a player needs them: a progress card tapped in its owner's hand (on the
tablet or on their phone), the variants on the New game screen, the improvement chart's levels.
Written for the table from the project's rules reference (the section is named with each text);
Kivy-free, so the app and the phone pages read the same words."""

from __future__ import annotations

from companion_app.i18n.current import _
from companion_app.rules.cards import ProgressCard
from companion_app.rules.messages import N_

PROGRESS_SECTION = "rules reference §10 (§9 for when cards are played)"

PROGRESS_CARD_HELP: dict[ProgressCard, str] = {
    # science (green)
    ProgressCard.ALCHEMIST: "Play before you roll: you choose the yellow and red results, "
    "and only the event die is rolled.",
    ProgressCard.CRANE: "Your next city improvement costs one commodity less (level 1 becomes "
    "free). Two Cranes do not stack on one improvement.",
    ProgressCard.ENGINEER: "Build a city wall for free on one of your cities without a wall, "
    "if you still have a wall piece.",
    ProgressCard.INVENTOR: "Swap two number tokens on the board. Neither may be a 2, 12, 6 or 8.",
    ProgressCard.IRRIGATION: "Take 2 grain for every fields hex next to at least one of your "
    "settlements or cities.",
    ProgressCard.MEDICINE: "Upgrade one settlement to a city for 2 ore and 1 grain.",
    ProgressCard.MINING: "Take 2 ore for every mountains hex next to at least one of your "
    "settlements or cities.",
    ProgressCard.PRINTER: "Worth 1 victory point; shown to everyone as soon as it is drawn.",
    ProgressCard.ROAD_BUILDING: "Build 2 roads for free.",
    ProgressCard.SMITH: "Promote up to 2 of your knights by one level each, for free (a mighty "
    "knight still needs the Fortress).",
    # politics (blue)
    ProgressCard.BISHOP: "Move the robber (only after the first barbarian attack) and take one "
    "random card from every player with a building next to its new hex.",
    ProgressCard.CONSTITUTION: "Worth 1 victory point; shown to everyone as soon as it is drawn.",
    ProgressCard.DESERTER: "An opponent removes one of their knights (they choose which). You "
    "may then place one of your own unused knights of that strength for free, active or not as "
    "the removed one was; a basic knight if you have none of that strength.",
    ProgressCard.DIPLOMAT: "Remove an open road: one with no other piece of its owner at one "
    "end. If the road was yours you may build it again elsewhere for free.",
    ProgressCard.INTRIGUE: "Displace an opponent's knight that stands on an intersection one of "
    "your roads reaches.",
    ProgressCard.SABOTEUR: "Every other player with at least as many victory points as you "
    "discards half of their resource and commodity cards (rounded down), cards of their choice.",
    ProgressCard.SPY: "Look at one player's progress cards and take one of them (not a victory "
    "point card).",
    ProgressCard.WARLORD: "Activate all of your knights for free.",
    ProgressCard.WEDDING: "Every player with more victory points than you gives you 2 resource "
    "or commodity cards of their choice (fewer if they hold fewer).",
    # trade (yellow)
    ProgressCard.COMMERCIAL_HARBOR: "For the rest of this turn, between your other actions, "
    "you may offer each opponent once a resource; each must give you a commodity of their "
    "choice for it (no commodity: no exchange, and that opponent was asked). You need not ask "
    "everyone.",
    ProgressCard.MASTER_MERCHANT: "Choose a player with more victory points than you, look at "
    "their resource and commodity cards, and take 2 of them.",
    ProgressCard.MERCHANT: "Put the merchant next to one of your settlements or cities: while it "
    "is yours you trade that hex's resource 2:1 and it is worth 1 victory point. The next "
    "Merchant played takes it.",
    ProgressCard.MERCHANT_FLEET: "For the rest of this turn, trade one resource or commodity of "
    "your choice 2:1 with the bank as often as you like.",
    ProgressCard.RESOURCE_MONOPOLY: "Name a resource: every other player gives you 2 of it "
    "(1 if they have only 1).",
    ProgressCard.TRADE_MONOPOLY: "Name a commodity: every other player gives you 1 of it.",
}


def progress_help(card: ProgressCard) -> str:
    """The card's effect, with where the rules reference says it."""
    return f"{PROGRESS_CARD_HELP[card]}\n({PROGRESS_SECTION})"


def progress_card_by_title(title: str) -> ProgressCard | None:
    """The card a hand shows by its title ("Road Building"), or None."""
    for card in ProgressCard:
        if card.title == title:
            return card
    return None


VARIANT_HELP: dict[str, str] = {
    "vp_target": N_("Points needed to win (13 in the rulebook, §11)."),
    "track_length": N_(
        "Spaces the barbarian ship sails before it attacks (7 in the rulebook, §7)."
    ),
    "easy_start": N_(
        "A 7 in a player's first two turns is rolled again, and the event die is not "
        "used in those turns (§3)."
    ),
    "quick_knights": N_("A knight may chase the robber away before the dice are rolled (§3)."),
    "evil_barbarians": N_(
        "At an attack each player, from the one whose turn it is, chooses which "
        "active knights defend; only those count and only those are deactivated (§3, §7)."
    ),
}


def improvement_words(levels: tuple[int, ...]) -> str:
    """``(1, 0, 2)`` as ``"trade 1, science 2"``: the tracks a player has bought, by name."""
    names = (_("trade {level}"), _("politics {level}"), _("science {level}"))
    bought = [name.format(level=level) for name, level in zip(names, levels, strict=True) if level]
    return ", ".join(bought) if bought else _("no improvements")
