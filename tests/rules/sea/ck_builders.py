"""New Shores game states for worked examples of §13 built with ``tests/rules/builders.py``'s
``make_game`` (knights with levels, progress cards, improvements, the bank), and a table's own
New Shores board with gold on the main island."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.operations import update_longest_road
from tests.rules.builders import make_game

NS4 = GameConfig.for_players(4, scenario="new_shores", seed=1)
"""The 4-player map (§13.11): gold 10 on hex 23 (corners 45, 53, 60, 67, 59, 52), gold 4 on
hex 3; the robber on the desert (hex 26), the pirate on frame cell 55 east of hex 23, whose
edges end at intersections 46, 53, 60 and 68."""
NS3 = GameConfig.for_players(3, scenario="new_shores", seed=1)


def ck_sea_game(
    *,
    pirate: int | None = None,
    ships: dict[int, int] | None = None,
    config: GameConfig = NS4,
    **kw: Any,
) -> Game:
    """``make_game`` on a New Shores board: the pirate on ``pirate`` (a cell) if given,
    ``ships`` (edge: player), and each player's small islands with a building of theirs counted
    as settled (their chits, §13.10)."""
    game = make_game(config=config, **kw)
    data = game.to_json()
    if pirate is not None:
        data["pirate"] = pirate
    data["ships"] = [{"edge": e, "player": p} for e, p in (ships or {}).items()]
    node_island = config.board.topology.node_island
    settled: list[set[int]] = [set() for _ in config.players]
    for building in data["buildings"]:
        island = node_island[building["node"]]
        if island:  # a small island (the main one is 0)
            settled[building["player"]].add(island)
    data["islands_settled"] = [sorted(i) for i in settled]
    built = Game.from_json(data)
    update_longest_road(built, range(len(config.players)))
    return built


def gold_on_the_main_island(players: int = 4, seed: int = 1, **kw: Any) -> GameConfig:
    """New Shores on a table's own board (R27): the printed map with a small island's gold field
    and a main-island hex swapped (terrain and token), so the setup and random games reach gold
    choices without ships. 4 players: gold 10 (hex 23) and pasture 9 (hex 21); 3 players: gold 4
    (hex 19) and pasture 6 (hex 10)."""
    printed = GameConfig.for_players(players, scenario="new_shores", seed=seed).board
    a, b = (21, 23) if players == 4 else (10, 19)
    terrains, tokens = list(printed.terrains), list(printed.tokens)
    terrains[a], terrains[b] = terrains[b], terrains[a]
    tokens[a], tokens[b] = tokens[b], tokens[a]
    board = replace(printed, terrains=tuple(terrains), tokens=tuple(tokens))
    return GameConfig.for_players(players, scenario="new_shores", seed=seed, board=board, **kw)
