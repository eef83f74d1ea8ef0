"""What one player may see of the state (hidden information): :meth:`Game.view_for`."""

from __future__ import annotations

from typing import Any

from companion_app.rules import codec, registry
from companion_app.rules.cards import CARD_KINDS, TRACKS, Card
from companion_app.rules.state import GameState


def view_for(game: GameState, player: int) -> dict[str, Any]:
    """The state as ``player`` may see it: own cards in full, others' resource, commodity and
    progress cards as counts, revealed VP cards for all, the decks' order and the generator's
    state hidden. A Spy or Master Merchant player sees the victim's cards while choosing."""
    data = codec.state_to_json(game)
    del data["rng"]
    data["config"] = dict(data["config"])
    del data["config"]["seed"]
    data["decks"] = {t.value: len(game.decks[t.index]) for t in TRACKS}
    names = [c.label for c in Card]
    data["hands"] = [
        h if p == player else {"cards": game.card_count(p)} for p, h in enumerate(data["hands"])
    ]
    data["progress_hands"] = [
        h if p == player else {"cards": len(game.progress_hands[p])}
        for p, h in enumerate(data["progress_hands"])
    ]
    data["last_production"] = [
        g if p == player else {"cards": sum(g.values())}
        for p, g in enumerate(data["last_production"])
    ]
    data["viewer"] = player
    picked = registry.picked_from(game)
    if game.prompt.player == player and picked is not None and picked[1].target:
        owner, hand = picked
        if hand.progress:
            data["shown"] = [c.value for c in game.progress_hands[owner]]
        else:
            cards = game.hands[owner]
            data["shown"] = {names[c]: cards[c] for c in range(CARD_KINDS) if cards[c]}
    return data
