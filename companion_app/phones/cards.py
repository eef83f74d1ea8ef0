"""The progress cards' rule text as a player reads it on their phone (§10, in short)."""

from __future__ import annotations

from companion_app.rules.cards import ProgressCard

RULE_TEXT: dict[ProgressCard, str] = {
    ProgressCard.ALCHEMIST: "Before rolling: choose the yellow and red dice; only the event die "
    "is rolled.",
    ProgressCard.CRANE: "One city improvement costs 1 commodity less (level 1 is free).",
    ProgressCard.ENGINEER: "Build a city wall for free.",
    ProgressCard.INVENTOR: "Swap two number tokens (not 2, 12, 6 or 8).",
    ProgressCard.IRRIGATION: "Take 2 grain for each fields hex next to your settlements or cities.",
    ProgressCard.MEDICINE: "Upgrade a settlement to a city for 2 ore and 1 grain.",
    ProgressCard.MINING: "Take 2 ore for each mountains hex next to your settlements or cities.",
    ProgressCard.PRINTER: "1 victory point, shown at once.",
    ProgressCard.ROAD_BUILDING: "Build 2 roads for free.",
    ProgressCard.SMITH: "Promote up to 2 knights for free (mighty still needs the Fortress).",
    ProgressCard.BISHOP: "Move the robber and steal 1 random card from each player with a "
    "building on its new hex.",
    ProgressCard.CONSTITUTION: "1 victory point, shown at once.",
    ProgressCard.DESERTER: "An opponent removes one of their knights; you may place one of yours "
    "of that strength for free.",
    ProgressCard.DIPLOMAT: "Remove an open road; if it is yours you may place it again for free.",
    ProgressCard.INTRIGUE: "Displace an opponent's knight standing next to one of your roads.",
    ProgressCard.SABOTEUR: "Each player with at least your VP discards half their cards.",
    ProgressCard.SPY: "Look at a player's progress cards and take one.",
    ProgressCard.WARLORD: "Activate all your knights for free.",
    ProgressCard.WEDDING: "Each player with more VP than you gives you 2 cards of their choice.",
    ProgressCard.COMMERCIAL_HARBOR: "Give each opponent 1 resource; each gives you 1 commodity "
    "of their choice.",
    ProgressCard.MASTER_MERCHANT: "See the cards of a player with more VP than you and take 2.",
    ProgressCard.MERCHANT: "Put the merchant next to your building: trade that hex's resource "
    "2:1 and hold 1 VP while it stays yours.",
    ProgressCard.MERCHANT_FLEET: "This turn, trade one chosen card kind 2:1 as often as you like.",
    ProgressCard.RESOURCE_MONOPOLY: "Name a resource: every other player gives you 2 of it.",
    ProgressCard.TRADE_MONOPOLY: "Name a commodity: every other player gives you 1 of it.",
}
"""One sentence per card, the effect only; the rules reference has the fine print."""
