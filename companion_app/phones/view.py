"""What one seat's phone shows, and which of its answers the table takes.

A seat's page is built from ``Game.view_for(seat)`` for everything hidden (its own cards in
full, everyone else's as counts) and from the public state for the rest (names, victory
points, knights on the board, the dice, the barbarians, whose decision it is). The choices of
a decision come from ``legal_actions()`` and only while that seat is the one deciding, so a
page never carries another seat's cards (``tests/phones/test_view.py`` checks it on random
games).

The page keeps the rules core's words as messages (:class:`~companion_app.rules.messages.Msg`);
each phone's copy is rendered in that phone's language as it is sent (:class:`SeatPage`).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any

from companion_app.game_log import GameLog
from companion_app.help_texts import PROGRESS_CARD_HELP
from companion_app.i18n import LANGUAGES, SOURCE, catalogue
from companion_app.rules.actions import Action, EventDie
from companion_app.rules.cards import (
    COMMODITIES,
    IMPROVEMENT_NAMES,
    RESOURCES,
    TRACKS,
    ProgressCard,
)
from companion_app.rules.game import Game, VictoryPoints
from companion_app.rules.messages import Msg, msg, nmsg
from companion_app.rules.pieces import KNIGHT_NAMES, NOBODY, SHIPS_PER_PLAYER
from companion_app.rules.registry import PHONE_PROMPTS, button_words, is_turn, prompt_details
from companion_app.rules.ships import pirate_edges
from companion_app.rules.words import EVENT_WORDS, cell_words, hex_words

"""The private decisions a phone may answer (``phone`` in their declaration): each belongs to
one seat and is about cards the rest of the table should not see being chosen. Everything
else stays on the tablet."""

LOG_LINES = 30
"""Log entries a page carries (the newest last)."""


def phone_decider(game: Game) -> int:
    """The seat whose phone may answer the current prompt, or NOBODY."""
    prompt = game.prompt
    return prompt.player if prompt.kind in PHONE_PROMPTS else NOBODY


def phone_refusal(game: Game, seat: int, action: Action) -> Msg | None:
    """Why the table does not take ``action`` from ``seat``'s phone; None if it does.

    A phone answers only for its own seat, only a private decision that seat is asked now,
    and only what the rules core finds legal.
    """
    if action.player != seat:
        return msg("a phone answers only for its own seat")
    if game.prompt.kind not in PHONE_PROMPTS:
        return msg("this is decided on the tablet: {prompt}", prompt=game.describe_prompt())
    if game.prompt.player != seat:
        return msg("it is not your decision: {prompt}", prompt=game.describe_prompt())
    return game.illegal_reason(action)


def seat_page(
    game: Game, seat: int, log: GameLog | None = None, asked: Collection[int] = ()
) -> dict[str, Any]:
    """The page of ``seat`` as JSON-ready data (see ``static/phone.js`` for its use).

    ``log`` is the game's log, in step with its history: the page carries its last lines as
    ``seat`` may read them (public words, or the private detail where ``seat`` is told it).
    ``asked``: the seats that asked to special-build in this phase (:func:`build_request_refusal`).
    """
    view = game.view_for(seat)
    names = game.config.names
    hand: Mapping[str, int] = view["hands"][seat]
    own = game.config.players[seat]
    points = game.victory_point_breakdown(seat)
    return {
        "seat": seat,
        "name": own.name,
        "colour": own.colour,
        "hand": {
            "resources": [[c.label, int(hand[c.label])] for c in RESOURCES],
            "commodities": [[c.label, int(hand[c.label])] for c in COMMODITIES],
            "names": {c.label: c.words for c in (*RESOURCES, *COMMODITIES)},
            "total": sum(int(n) for n in hand.values()),
            "limit": game.discard_limit(seat),
        },
        "progress": [
            {
                "title": ProgressCard(c).title,
                "track": ProgressCard(c).track.value,
                "text": Msg(PROGRESS_CARD_HELP[ProgressCard(c)]),
            }
            for c in view["progress_hands"][seat]
        ],
        "vp_cards": [ProgressCard(c).title for c in view["revealed_vp"][seat]],
        "vp": {"total": points.total, "parts": vp_parts(points, at_sea=game.topology.has_sea)},
        "sea": sea_lines(game, seat),
        "knights": [
            {"level": KNIGHT_NAMES[k["level"]], "active": bool(k["active"])}
            for k in view["knights"]
            if k["player"] == seat
        ],
        "improvements": [
            {
                "track": t.value,
                "words": t.words,
                "level": int(view["improvements"][t.value][seat]),
                "name": _improvement_name(t.value, int(view["improvements"][t.value][seat])),
            }
            for t in TRACKS
        ],
        "players": [_player_line(game, view, p) for p in range(game.player_count)],
        "turn": {
            "active": names[game.active],
            "prompt": game.describe_prompt(),
            "turn": game.turn,
            "moves": len(game.history),
        },
        "roll": _roll(view),
        "dice_mode": game.config.dice_mode,
        **robber_and_pirate(game),
        "barbarians": {
            "position": game.barbarian_position,
            "length": game.config.barbarian_track_length,
            "attacks": game.barbarian_attacks,
            "strength": game.barbarian_strength(),
            "knights": sum(game.knight_strength(p) for p in range(game.player_count)),
            "forecast": _forecast(game),
        },
        "castles": [
            {"track": track.value, "draws": [[names[p] for p in seats] for seats in by_red]}
            for track, by_red in game.castle_table().items()
        ],
        "decision": decision(game, seat),
        "why_not": why_not(game, seat),
        "special_build": special_build(game, seat, seat in asked),
        "hint": hint_refusal(game, seat) is None,
        "winner": names[game.winner] if game.winner != NOBODY else None,
        "log": [] if log is None else log_lines(log, seat),
    }


def sea_lines(game: Game, seat: int) -> dict[str, Any] | None:
    """On a sea board (§13), the seat's ships (those by the pirate do not move, §13.4), its
    small islands and the Longest Trade Route, all public; None on an island."""
    if not game.topology.has_sea:
        return None
    holder = game.longest_road_holder
    pirate = pirate_edges(game)
    return {
        "ships": len(game.ships_of[seat]),
        "by_pirate": sum(1 for e in game.ships_of[seat] if e in pirate),
        "ships_left": game.ships_left(seat),
        "ships_total": SHIPS_PER_PLAYER,
        "islands": len(game.islands_settled[seat]),
        "route": game.road_length[seat],
        "route_holder": game.config.names[holder] if holder != NOBODY else None,
    }


def robber_and_pirate(game: Game) -> dict[str, Msg | None]:
    """Where the robber stands and, on a sea board, the pirate (§8, §13.4), in the log's words
    for a place ("Robber: the 8 hills"); None where a piece is not on the board."""
    robber = game.robber_hex
    pirate = game.pirate_cell if game.topology.has_sea else NOBODY
    return {
        "robber": msg("Robber: {place}", place=hex_words(game, robber))
        if robber != NOBODY
        else None,
        "pirate": msg("Pirate: {place}", place=cell_words(game, pirate))
        if pirate != NOBODY
        else None,
    }


def build_request_refusal(game: Game, seat: int) -> str | None:
    """Why ``seat``'s "I'll build" is not shown on the tablet now; None when it is: during the
    special build phase (5-6 players, §12), from a seat that may still build and is not
    building now. A request, not an action: the table starts the special build."""
    phase = game.special_build
    if phase is None:
        return "there is no special build phase now"
    if phase.building and phase.builder == seat:
        return "you are building now: build on the tablet"
    if seat not in game.special_builders_left():
        return "your special build is not due in this phase"
    return None


def hint_refusal(game: Game, seat: int) -> Msg | None:
    """Why ``seat``'s phone may not ask "What would the Expert do?" now; None when it may: in
    a game with a seat the tablet plays (as on the tablet), about that person's own decision
    (the Expert reads that seat's hand: the answer goes to that seat's phone only)."""
    players = game.config.players
    if not any(p.bot is not None for p in players):
        return msg("the Expert's hint is for games with a seat the tablet plays")
    if game.is_over:
        return msg("the game is over")
    if not 0 <= seat < len(players) or players[seat].bot is not None:
        return msg("this seat is the tablet's")
    if game.prompt.player != seat:
        return msg("it is not your decision: {prompt}", prompt=game.describe_prompt())
    return None


def special_build(game: Game, seat: int, asked: bool) -> dict[str, Any] | None:
    """The special build phase as ``seat``'s page shows it, with "I'll build" while the seat
    may still ask; None outside the phase."""
    phase = game.special_build
    if phase is None:
        return None
    names = game.config.names
    return {
        "builder": names[phase.builder] if phase.building else None,
        "next": names[game.active],
        "may_ask": build_request_refusal(game, seat) is None,
        "asked": asked,
    }


def log_lines(log: GameLog, seat: int) -> list[dict[str, Any]]:
    """The newest :data:`LOG_LINES` entries as ``seat`` may read them."""
    return [
        {"text": e.words_for(seat), "private": seat in e.audience and e.detail is not None}
        for e in log.entries[-LOG_LINES:]
    ]


def why_not(game: Game, seat: int) -> dict[str, list[dict[str, str]]]:
    """On ``seat``'s own turn, each kind of action it cannot take now and why (those that read
    its hand too: the page is the seat's alone), in every language: the page shows its own."""
    if game.is_over or game.active != seat or not is_turn(game):
        return {}
    reasons = game.why_not_now(seat)
    pages = {}
    for code in LANGUAGES:
        words = catalogue(code)
        pages[code] = [
            {
                "title": words.render(title),
                "text": words.render(reason.text),
                "rule": words.render(reason.rule) if reason.rule is not None else "",
            }
            for title, reason in reasons
        ]
    return pages


def vp_parts(points: VictoryPoints, *, at_sea: bool = False) -> list[list[Any]]:
    """``[["2 settlements", 2], ["1 city", 2], ...]``: where the victory points come from; on a
    sea board the Longest Trade Route (§13.6) and the small islands' chits (§13.10)."""
    parts: list[list[Any]] = []
    if points.settlements:
        words = nmsg("{count} settlement", "{count} settlements", points.settlements)
        parts.append([words, points.settlements])
    if points.cities:
        parts.append([nmsg("{count} city", "{count} cities", points.cities), 2 * points.cities])
    if points.metropolises:
        words = nmsg("{count} metropolis", "{count} metropolises", points.metropolises)
        parts.append([words, 2 * points.metropolises])
    if points.longest_road:
        parts.append([msg("longest trade route") if at_sea else msg("longest road"), 2])
    if points.island_chits:
        words = nmsg("{count} island chit", "{count} island chits", points.island_chits)
        parts.append([words, points.island_chits])
    if points.defender_cards:
        words = nmsg(
            "{count} Defender of Catan", "{count} Defenders of Catan", points.defender_cards
        )
        parts.append([words, points.defender_cards])
    if points.merchant:
        parts.append([msg("the merchant"), 1])
    if points.vp_cards:
        words = nmsg("{count} VP card", "{count} VP cards", points.vp_cards)
        parts.append([words, points.vp_cards])
    return parts


def decision(game: Game, seat: int) -> dict[str, Any] | None:
    """The private decision ``seat`` is asked now, with its legal answers; else None."""
    prompt = game.prompt
    if prompt.player != seat or prompt.kind not in PHONE_PROMPTS:
        return None
    choices = [
        {"label": _choice_label(game, a), "action": a.to_json()}
        for a in game.legal_actions()
        if a.player == seat
    ]
    detail = prompt_details(game, phone=True)
    return {
        "kind": prompt.kind.value,
        "words": game.describe_prompt(),
        "detail": detail,
        "count": prompt.count,
        "choices": choices,
    }


def _choice_label(game: Game, action: Action) -> Msg:
    """The words of the tablet's button for the same answer (the rules' one declaration)."""
    return button_words(game, action, game.config.names)


def _improvement_name(track: str, level: int) -> Msg | str:
    for t in TRACKS:
        if t.value == track and level:
            return IMPROVEMENT_NAMES[t][level - 1]
    return ""


def _player_line(game: Game, view: Mapping[str, Any], p: int) -> dict[str, Any]:
    """What the whole table sees of a player: counts only."""
    cfg = game.config.players[p]
    hand = view["hands"][p]
    progress = view["progress_hands"][p]
    return {
        "seat": p,
        "name": cfg.name,
        "colour": cfg.colour,
        "vp": game.victory_points(p),
        "cards": hand["cards"] if "cards" in hand else sum(int(n) for n in hand.values()),
        "progress_cards": progress["cards"] if isinstance(progress, dict) else len(progress),
        "knights": game.knight_strength(p),
        "active": p == game.active,
        **({"ships": len(game.ships_of[p])} if game.topology.has_sea else {}),
    }


def _forecast(game: Game) -> dict[str, Any]:
    """The next attack were it to come now (§7): public, from the board and the knights."""
    names = game.config.names
    f = game.barbarian_forecast()
    return {
        "spaces": f.spaces_left,
        "rolls": f.expected_rolls,
        "strength": f.strength,
        "defence": f.total_defence,
        "losers": [names[p] for p in f.losers],
        "defender": names[f.defender] if f.defender != NOBODY else None,
        "tied": [names[p] for p in f.tied],
    }


def _roll(view: Mapping[str, Any]) -> dict[str, Any] | None:
    roll = view["last_roll"]
    if roll is None:
        return None
    yellow, red = int(roll["yellow"]), int(roll["red"])
    face = EVENT_WORDS[EventDie(roll["event"])]
    return {
        "yellow": yellow,
        "red": red,
        "event": roll["event"],
        "face": face,
        "total": yellow + red,
    }


class SeatPage:
    """One seat's state message, its words still messages: each phone gets it in its own
    language, rendered once per language (two phones of one table may read two)."""

    def __init__(self, head: str, page: Mapping[str, Any]) -> None:
        self._head = head
        self._page = page
        self._texts: dict[str, str] = {}

    @staticmethod
    def _json(page: Mapping[str, Any], code: str) -> str:
        words = catalogue(code)

        def rendered(value: object) -> str:
            if isinstance(value, Msg):
                return words.render(value)
            raise TypeError(f"{type(value).__name__} is not JSON")

        return json.dumps(page, separators=(",", ":"), default=rendered)

    @classmethod
    def key(cls, page: Mapping[str, Any]) -> str:
        """The page in English: what tells whether a seat's page changed."""
        return cls._json(page, SOURCE)

    def text(self, code: str) -> str:
        """The whole state message in language ``code``."""
        if code not in self._texts:
            self._texts[code] = self._head + self._json(self._page, code) + "}"
        return self._texts[code]
