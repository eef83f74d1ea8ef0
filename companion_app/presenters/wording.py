"""The game in words for the shared screen, without Kivy: the top bar (roll, production, bank,
turn), the setup's placement order, each action as a button says it, and the decision due
(who decides, what the table may see of it).

An action's words are declared with the action in its mechanic module (the rules core's
registry); ``describe_action`` reads them for the buttons. The rules core's words are messages,
rendered here in the tablet's language (``i18n.render``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion_app.i18n import render
from companion_app.i18n.current import _, current, n_
from companion_app.presenters.board_picture import RGBA, player_colour
from companion_app.rules.actions import Action, EventDie, OfferTrade
from companion_app.rules.cards import CARD_KINDS, Card
from companion_app.rules.forecast import BarbarianForecast
from companion_app.rules.game import NOBODY, Game
from companion_app.rules.messages import N_
from companion_app.rules.pieces import KNIGHT_NAMES as KNIGHT_NAMES
from companion_app.rules.registry import (
    PRIVATE_PROMPTS,
    button_words,
    is_turn,
    prompt_details,
    prompt_words,
)
from companion_app.rules.words import EVENT_WORDS as EVENT_WORDS
from companion_app.rules.words import dice_words
from companion_app.rules.words import hand_words as hand_words
from companion_app.rules.words import place_words as place_words

if TYPE_CHECKING:  # the log loads with a game: Home's words need none of it
    from companion_app.game_log import GameLog

# ---- the top bar ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollView:
    yellow: int
    red: int
    event: EventDie
    total: int
    words: str


def roll_view(game: Game) -> RollView | None:
    roll = game.last_roll
    if roll is None:
        return None
    return RollView(roll.yellow, roll.red, roll.event, roll.total, render(dice_words(roll)))


FULL_PRODUCTION_SEATS = 4
"""Up to this many players the roll's line names every seat, "nothing" included."""


def production_lines(game: Game, log: GameLog) -> list[str]:
    """Who got what from the roll shown, every seat in seat order, with the robber's and the
    bank's reasons; a 7, or production held back by the barbarians, says so. The same roll's
    words stay after End turn (the log keeps the report until the next roll)."""
    from companion_app.game_log import production_words

    report = log.last_roll
    if report is None:
        return []
    # Five or six seats: only who got something (or why not) fits the top bar.
    everyone = game.player_count <= FULL_PRODUCTION_SEATS
    return [render(line) for line in production_words(game.config.names, report, everyone=everyone)]


def bank_words(game: Game) -> str:
    """The bank's stock, every card kind: what production and trades can still pay."""
    stock = [render(Card(c).counted(game.bank[c])) for c in range(CARD_KINDS)]
    return "\n".join(" · ".join(stock[i : i + 2]) for i in range(0, len(stock), 2))


def turn_words(game: Game) -> str:
    """Whose turn it is: the setup round, or the turn number and the player on turn."""
    names = game.config.names
    if game.in_setup:
        round_no = 1 if game.setup_step < 2 * game.player_count else 2
        return _("Setup round {round} · {player}").format(
            round=round_no, player=names[game.prompt.player]
        )
    if game.is_over:
        return _("Game over · {player} won").format(player=names[game.winner])
    return _("Turn {number} · {player}").format(number=game.turn + 1, player=names[game.active])


@dataclass(frozen=True, slots=True)
class PlacementStep:
    seat: int
    name: str
    piece: str
    """"settlement + road" (round 1) or "city + road" (round 2)."""
    state: str
    """"done", "now" or "next"."""
    note: str = ""
    """For a starting city placed: the starting resources it brought (§2)."""


PLACEMENT_PIECES: dict[bool, tuple[str, str]] = {
    False: (N_("settlement + road"), N_("city + road")),
    True: (N_("settlement + road or ship"), N_("city + road or ship")),
}
"""What each round of the setup places (§2), on an island and on a sea board (§13.3)."""


def placement_order(game: Game) -> list[PlacementStep]:
    """The setup order (§2): seats in order with a settlement, then in reverse with a city.

    The rules core decides who places; this list is only the overview, and the test checks
    its "now" step against ``game.prompt.player``.
    """
    seats = list(game.seats)
    names = game.config.names
    # At sea each starting piece may take a ship instead of its road (§13.3).
    first, second = PLACEMENT_PIECES[game.topology.has_sea]
    order = [(s, _(first)) for s in seats] + [(s, _(second)) for s in seats[::-1]]
    current = game.setup_step // 2 if game.in_setup else len(order)
    steps = []
    for i, (seat, piece) in enumerate(order):
        state = "done" if i < current else "now" if i == current else "next"
        note = ""
        if i >= len(seats) and state == "done" and game.in_setup:
            # Nothing but the starting city gives cards during setup: the hand is what it gave.
            note = "got " + render(hand_words(game.hand(seat)))
        steps.append(PlacementStep(seat, names[seat], piece, state, note))
    return steps


def barbarian_track(game: Game) -> tuple[int, int]:
    """(ship position, spaces): the same two numbers the dice box's LEDs show."""
    return game.barbarian_position, game.config.barbarian_track_length


@dataclass(frozen=True, slots=True)
class ForecastWords:
    """The barbarians' next attack in the table's words (§7): ``when`` ("3 spaces · ~6
    rolls") and ``outcome`` ("7 vs 5: Anna, Bo lose a city")."""

    when: str
    outcome: str

    @property
    def line(self) -> str:
        return f"{self.when} · {self.outcome}"


def track_line(game: Game, forecast: BarbarianForecast) -> str:
    """Above the track's lamps: ``"Barbarians 3/7 · ~8 rolls"`` (the lamps show the spaces)."""
    position, length = barbarian_track(game)
    return n_(
        "Barbarians {position}/{length} · ~{count} roll",
        "Barbarians {position}/{length} · ~{count} rolls",
        forecast.expected_rolls,
        position=position,
        length=length,
    )


def _names(seats: Iterable[int], names: Sequence[str]) -> str:
    return ", ".join(names[p] for p in seats)


NAMED_IN_FORECAST = 3
"""The most players the forecast names; more are counted (the track's column is narrow)."""


def forecast_words(forecast: BarbarianForecast, names: Sequence[str]) -> ForecastWords:
    """Were the ship to arrive now: the strength against the active knights and its outcome."""
    spaces = forecast.spaces_left
    rolls = n_("~{count} roll", "~{count} rolls", forecast.expected_rolls)
    when = n_("{count} space · {rolls}", "{count} spaces · {rolls}", spaces, rolls=rolls)
    score = _("{strength} vs {defence}").format(
        strength=forecast.strength, defence=forecast.total_defence
    )
    if len(forecast.losers) > NAMED_IN_FORECAST:  # five or six: the count fits the top bar
        outcome = n_(
            "{score}: {count} player loses a city",
            "{score}: {count} players lose a city",
            len(forecast.losers),
            score=score,
        )
    elif forecast.losers:
        outcome = n_(
            "{score}: {players} loses a city",
            "{score}: {players} lose a city",
            len(forecast.losers),
            score=score,
            players=_names(forecast.losers, names),
        )
    elif forecast.defender != NOBODY:
        outcome = _("{score}: Defender {player}").format(
            score=score, player=names[forecast.defender]
        )
    elif len(forecast.tied) > NAMED_IN_FORECAST:
        outcome = n_(
            "{score}: tie, {count} player draws",
            "{score}: tie, {count} players draw",
            len(forecast.tied),
            score=score,
        )
    elif forecast.tied:
        outcome = _("{score}: tie, {players} draw").format(
            score=score, players=_names(forecast.tied, names)
        )
    elif forecast.defended:
        outcome = _("{score}: Catan holds").format(score=score)
    else:
        outcome = _("{score}: no city to lose").format(score=score)
    return ForecastWords(when, outcome)


# ---- buttons for the actions not chosen on the board ------------------------------------------


def describe_action(game: Game, action: Action) -> str:
    """Button words for an action, in the game's own terms: the words its mechanic declares."""
    return render(button_words(game, action, game.config.names))


def knight_words(game: Game, node: int) -> str:
    level = render(KNIGHT_NAMES[game.knight_level[node]]) if game.knight_level[node] else ""
    place = render(place_words(game, node))
    if game.knight_active[node]:
        return _("{level} knight (active) {place}").format(level=level, place=place)
    return _("{level} knight (inactive) {place}").format(level=level, place=place)


def card_title(action: Action) -> str:
    from companion_app.rules.progress import card_of

    return render(card_of(action).title)


# ---- prompts: who decides, and what they see ------------------------------------------------

"""Prompts where the decider picks among hidden cards: theirs, or the victim's they may see."""


@dataclass(frozen=True, slots=True)
class PromptView:
    player: int
    name: str
    colour: RGBA
    headline: str
    """In big letters: "Pass the tablet to Blue", or "Red: your turn"."""
    words: str
    """The rules core's words for the decision (``describe_prompt``)."""
    hides_cards: bool
    """The cards to choose from are shown only after the decider taps "Show my cards"."""
    details: str
    """The offer to answer, the cards in question once revealed."""


def prompt_view(
    game: Game, revealed: bool = False, on_phone: bool = False, in_hand: bool = False
) -> PromptView:
    """``on_phone``: the decider's phone is connected and may answer; ``in_hand``: the decider
    has opened something on the tablet (a button of the bar, a step, their cards). Either way
    nobody is told to pass the tablet."""
    prompt = game.prompt
    p = prompt.player
    names = game.config.names
    own_turn = p == game.active and is_turn(game)
    phase = game.special_build
    if phase is not None and not game.is_over:
        return _special_build_view(game, phase.builder if phase.building else NOBODY)
    if game.is_over:
        headline = _("{player} has won!").format(player=names[game.winner])
    elif holds_tablet(game) != p and not on_phone and not in_hand:
        headline = _("Pass the tablet to {player}").format(player=names[p])
    elif own_turn:
        headline = _("{player}: your turn").format(player=names[p])
    else:
        headline = _("{player} decides").format(player=names[p])
    hides = prompt.kind in PRIVATE_PROMPTS
    shown = prompt_details(game, revealed=revealed)
    details = "" if shown is None else render(shown)
    if not details and not own_turn and not game.is_over:
        # What the decision is, in full (the top bar may have to shorten it).
        details = render(prompt_words(game.prompt, sea=game.topology.has_sea))
    return PromptView(
        p,
        names[p],
        player_colour(game.config.players[p].colour),
        headline,
        render(game.describe_prompt()),
        hides,
        details,
    )


def _special_build_view(game: Game, builder: int) -> PromptView:
    """The special build phase (5-6 players, §12): whose special build it is, or the table's
    question who builds (a name starts theirs, "Nobody builds" or the next player's roll ends
    the phase)."""
    names = game.config.names
    seat = game.prompt.player
    if builder != NOBODY:
        headline = _("Special build: {player}").format(player=names[builder])
        details = _("Build from the bar, then Done building")
    else:
        headline = _("Special build: who builds?")
        waiting = ", ".join(names[p] for p in game.special_builders_left())
        details = _("{players} may build before {player} rolls").format(
            players=waiting, player=names[game.active]
        )
    return PromptView(
        seat,
        names[seat],
        player_colour(game.config.players[seat].colour),
        headline,
        render(game.describe_prompt()),
        False,
        details,
    )


def holds_tablet(game: Game) -> int:
    """Who has the tablet now: the player who took the last action (the first placer at the
    start)."""
    return game.history[-1].player if game.history else game.prompt.player


def card_list(cards: Iterable[object]) -> str:
    titles = [render(getattr(c, "title", str(c))) for c in cards]
    return ", ".join(titles) if titles else "none"


# ---- domestic trade -----------------------------------------------------------------------------


def offer_words(game: Game, offer: OfferTrade) -> str:
    """The offer as the table reads it; the rules core's objection when it is not legal."""
    reason = game.illegal_reason(offer)
    names = game.config.names
    gives, takes = render(hand_words(offer.give)), render(hand_words(offer.take))
    text = _("To {player}: give {gives}, get {takes}").format(
        player=names[offer.to], gives=gives, takes=takes
    )
    return text if reason is None else render(reason)


def players_words(players: Sequence[str]) -> str:
    """``"Red, Blue, White"``; of five or six the first two and how many: ``"Red, Blue +4"``."""
    if len(players) <= 4:
        return ", ".join(players)
    return _("{first}, {second} +{more}").format(
        first=players[0], second=players[1], more=len(players) - 2
    )


def losers_words(losers: Sequence[str]) -> str:
    """Who loses a city; of more than ``NAMED_IN_FORECAST``, how many (rows name them)."""
    if len(losers) > NAMED_IN_FORECAST:
        return n_(
            "The barbarians win. {count} player loses a city.",
            "The barbarians win. {count} players lose a city.",
            len(losers),
        )
    if len(losers) == 1:
        return _("The barbarians win. {player} loses a city.").format(player=losers[0])
    return _("The barbarians win. {players} lose a city.").format(
        players=current().join(list(losers))
    )
