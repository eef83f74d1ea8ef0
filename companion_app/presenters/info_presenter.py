"""What the information screens show (player lines, private hands, the improvement chart, the
barbarian attack, statistics, the end of the game), computed without any Kivy import.

Privacy is decided here, from ``Game.view_for``: the player lines and every screen the whole
table sees are built from the view of nobody in particular (counts only); a hand in full comes
only from its owner's view, and only the hand screen asks for it. Every rule and figure is the
rules core's or :mod:`companion_app.game_stats`'s; this module turns them into words and
numbers for the widgets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.game_stats import (
    EVENT_FACES,
    EVENT_PROBABILITIES,
    SUMS,
    DiceCounts,
    Fairness,
    GameStatistics,
    Luck,
)
from companion_app.help_texts import improvement_words, progress_card_by_title
from companion_app.i18n import number, render
from companion_app.i18n.current import _, current, n_
from companion_app.presenters.board_picture import (
    EVENT_COLOURS,
    RESOURCE_COLOURS,
    RGBA,
    TRACK_COLOURS,
    player_colour,
    player_mark,
)
from companion_app.presenters.wording import EVENT_WORDS, losers_words
from companion_app.rules.actions import EventDie
from companion_app.rules.cards import (
    ABILITY_LEVEL,
    COMMODITIES,
    IMPROVEMENT_NAMES,
    MAX_IMPROVEMENT_LEVEL,
    METROPOLIS_LEVEL,
    RESOURCES,
    TRACKS,
    Card,
    ProgressCard,
    Track,
)
from companion_app.rules.game import Game, VictoryPoints
from companion_app.rules.messages import N_
from companion_app.rules.pieces import NOBODY
from companion_app.rules.state import BarbarianAttack
from companion_app.rules.words import hand_words

PUBLIC = NOBODY
"""The viewer of everything the whole table sees: ``view_for(PUBLIC)`` holds only counts."""


def public_view(game: Game) -> dict[str, Any]:
    """The state as the table sees it: nobody's cards in full."""
    return game.view_for(PUBLIC)


def _and(words: Sequence[str]) -> str:
    """``"Red, Blue and White"`` in the table's language."""
    return current().join(list(words))


# ---- victory points --------------------------------------------------------------------------


def vp_words(points: VictoryPoints, target: int | None = None, *, at_sea: bool = False) -> str:
    """``"7 VP: 2 settl., 2 cities, metropolis, Defender"``: the total and where it comes from;
    with the game's ``target``, ``"7/13 VP: ..."`` (how far each player is from winning). On a
    sea board (``at_sea``) the 2 VP for the longest are the Longest Trade Route's (§13.6), and
    the small islands' Catan chits count (§13.10)."""
    parts = []
    if points.settlements:
        parts.append(_("{count} settl.").format(count=points.settlements))
    if points.cities:
        parts.append(n_("{count} city", "{count} cities", points.cities))
    if points.metropolises:
        parts.append(
            _("metropolis")
            if points.metropolises == 1
            else n_("{count} metropolis", "{count} metropolises", points.metropolises)
        )
    if points.longest_road:
        parts.append(_("longest trade route") if at_sea else _("longest road"))
    if points.island_chits:
        parts.append(n_("{count} island chit", "{count} island chits", points.island_chits))
    if points.defender_cards:
        parts.append(
            _("Defender")
            if points.defender_cards == 1
            else n_("{count} Defender", "{count} Defenders", points.defender_cards)
        )
    if points.merchant:
        parts.append(_("merchant"))
    if points.vp_cards:
        parts.append(n_("{count} VP card", "{count} VP cards", points.vp_cards))
    if target is None:
        head = _("{points} VP").format(points=points.total)
    else:
        head = _("{points}/{target} VP").format(points=points.total, target=target)
    return f"{head}: {', '.join(parts)}" if parts else head


# ---- the player lines ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanelLine:
    """One player's line on the game screen: public facts only."""

    seat: int
    name: str
    colour: RGBA
    mark: str
    """The player's letter (as on their pieces): colour alone does not tell red from orange."""
    deciding: bool
    on_turn: bool
    victory_points: int
    vp: str
    """The VP out of the game's target, with the breakdown (:func:`vp_words`)."""
    cards: int
    """Resource and commodity cards held (a count: the hand is private)."""
    progress: int
    """Progress cards held, VP cards not counted (a count)."""
    counts: str
    """The second line: cards, progress cards, knight strength, improvement levels."""
    vp_total: str = ""
    """The VP out of the game's target alone (``"7/13 VP"``)."""
    brief: str = ""
    """The second line of five or six players (six fit a 7-inch tablet): cards, progress
    cards, knight strength."""


def panel_lines(game: Game) -> list[PanelLine]:
    """The lines of the player panel, from the public view (so no hand can leak into it)."""
    view = public_view(game)
    lines = []
    for p, cfg in enumerate(game.config.players):
        cards = int(view["hands"][p]["cards"])
        progress = int(view["progress_hands"][p]["cards"])
        strength = game.knight_strength(p)
        knights = len(game.knights_of[p])
        levels = improvement_words(tuple(game.improvements[p]))
        knight_words = (
            _("knights {count}, strength {strength}").format(count=knights, strength=strength)
            if knights
            else _("no knights")
        )
        strength_words = (
            _("strength {strength}").format(strength=strength) if knights else _("no knights")
        )
        card_words = n_("{count} card", "{count} cards", cards)
        progress_words = _("{count} progress").format(count=progress)
        counts = f"{card_words} · {progress_words} · {knight_words} · {levels}"
        points = game.victory_point_breakdown(p)
        lines.append(
            PanelLine(
                seat=p,
                name=cfg.name,
                colour=player_colour(cfg.colour),
                mark=player_mark(cfg.colour),
                deciding=p == game.prompt.player and not game.is_over,
                on_turn=p == game.active and not game.in_setup,
                victory_points=points.total,
                vp=vp_words(points, game.config.vp_target, at_sea=game.topology.has_sea),
                cards=cards,
                progress=progress,
                counts=counts,
                vp_total=_("{points}/{target} VP").format(
                    points=points.total, target=game.config.vp_target
                ),
                brief=f"{card_words} · {progress_words} · {strength_words}",
            )
        )
    return lines


# ---- a private hand --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's cards, as only that player may see them."""

    seat: int
    name: str
    colour: RGBA
    resources: tuple[tuple[str, int], ...]
    """(card, count) for the five resources, zeros included (the hand's layout stays put)."""
    commodities: tuple[tuple[str, int], ...]
    progress: tuple[str, ...]
    """Progress card titles in hand."""
    vp_cards: tuple[str, ...]
    """Printer / Constitution, revealed."""
    total: int
    limit: int
    """Cards the player may hold on a 7 without discarding (§3.4)."""


def open_hands(game: Game) -> list[int]:
    """The hands the shared screen may open: the deciding player's own during the game
    (nobody else's), every hand once the game is over."""
    order = seat_order(game)
    return order if game.is_over else order[:1]


def cover_words(game: Game, seat: int) -> str:
    name = game.config.names[seat]
    return _("Hand the tablet to {player} — tap to show {player}'s cards").format(player=name)


def hand_view(game: Game, seat: int) -> HandView:
    """The hand of ``seat`` from ``view_for(seat)``: the one place a hand is read in full."""
    view = game.view_for(seat)
    hand: Mapping[str, int] = view["hands"][seat]
    progress = tuple(render(ProgressCard(c).title) for c in view["progress_hands"][seat])
    vp_cards = tuple(render(ProgressCard(c).title) for c in view["revealed_vp"][seat])
    cfg = game.config.players[seat]
    return HandView(
        seat=seat,
        name=cfg.name,
        colour=player_colour(cfg.colour),
        resources=tuple((c.label, int(hand[c.label])) for c in RESOURCES),
        commodities=tuple((c.label, int(hand[c.label])) for c in COMMODITIES),
        progress=progress,
        vp_cards=vp_cards,
        total=sum(int(n) for n in hand.values()),
        limit=game.discard_limit(seat),
    )


def hand_summary(hand: HandView) -> str:
    """``"Red: 6 cards (a 7 makes you discard above 9) · 1 progress card · revealed: Printer"``"""
    vp = (
        " · " + _("revealed: {cards}").format(cards=", ".join(hand.vp_cards))
        if hand.vp_cards
        else ""
    )
    cards = n_(
        "{count} card (a 7 makes you discard above {limit})",
        "{count} cards (a 7 makes you discard above {limit})",
        hand.total,
        limit=hand.limit,
    )
    progress = n_("{count} progress card", "{count} progress cards", len(hand.progress))
    return f"{hand.name}: {cards} · {progress}{vp}"


# ---- the improvement chart -------------------------------------------------------------------


ABILITIES: dict[Track, str] = {
    Track.TRADE: N_("trade a commodity 2:1 for any card, own turn"),
    Track.POLITICS: N_("promote strong knights to mighty"),
    Track.SCIENCE: N_("a resource of your choice when a roll gives you nothing"),
}
"""The level-3 abilities (§9)."""


def draw_numbers(level: int) -> tuple[int, ...]:
    """Red-die results that draw a progress card at ``level`` when the track's castle shows
    (§9): level L draws on red 1 … L+1; nothing below level 1."""
    return tuple(range(1, min(level + 1, 6) + 1)) if level >= 1 else ()


def red_words(level: int) -> str:
    numbers = draw_numbers(level)
    if not numbers:
        return _("no draws")
    return _("red any") if len(numbers) == 6 else _("red 1–{number}").format(number=numbers[-1])


def castle_words(seats_by_red: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """Who draws on this track's castle, by red number (§9), runs of equal numbers joined:
    ``"castle, red 1–2: Red, Blue · 3–4: Red · 5–6: nobody"``."""
    parts = []
    start = 0
    for red in range(1, len(seats_by_red) + 1):
        if red < len(seats_by_red) and seats_by_red[red] == seats_by_red[start]:
            continue
        numbers = f"{start + 1}" if red == start + 1 else f"{start + 1}–{red}"
        who = ", ".join(names[p] for p in seats_by_red[start]) or _("nobody")
        parts.append(f"{numbers}: {who}")
        start = red
    return _("castle, red {numbers}").format(numbers=" · ".join(parts))


@dataclass(frozen=True, slots=True)
class ChartCell:
    level: int
    building: str
    cost: str
    """``"3 coin"``"""
    draws: str
    """``"red 1–4"``: the red-die results that draw a card at this level."""
    note: str
    """The level-3 ability, the metropolis at 4 and 5, else ""."""
    reached: bool


@dataclass(frozen=True, slots=True)
class ChartTrack:
    track: Track
    title: str
    colour: RGBA
    level: int
    cells: tuple[ChartCell, ...]
    metropolis: str
    """Who holds this track's metropolis (and on which intersection), or "no metropolis yet"."""
    everyone: str
    """Every player's level on this track, e.g. "Red 2 · Blue 4 · White 0"."""
    castle: str
    """Who draws on this track's castle by red number (:func:`castle_words`)."""


def improvement_chart(game: Game, seat: int) -> list[ChartTrack]:
    """Three tracks × five levels for ``seat`` (improvements are public)."""
    names = game.config.names
    castles = game.castle_table()
    tracks = []
    for track in TRACKS:
        t = track.index
        level = game.improvements[seat][t]
        cells = []
        for lv in range(1, MAX_IMPROVEMENT_LEVEL + 1):
            if lv == ABILITY_LEVEL:
                note = _(ABILITIES[track])
            elif lv == METROPOLIS_LEVEL:
                note = _("metropolis to the first here")
            elif lv == MAX_IMPROVEMENT_LEVEL:
                note = _("takes the metropolis from level 4")
            else:
                note = ""
            cells.append(
                ChartCell(
                    level=lv,
                    building=render(IMPROVEMENT_NAMES[track][lv - 1]),
                    cost=render(track.commodity.counted(lv)),
                    draws=red_words(lv),
                    note=note,
                    reached=lv <= level,
                )
            )
        holder = game.metropolis_owner(t)
        metropolis = (
            _("no metropolis yet")
            if holder == NOBODY
            else _("metropolis: {player} (intersection {node})").format(
                player=names[holder], node=game.metropolis[t]
            )
        )
        everyone = " · ".join(
            f"{names[p]} {game.improvements[p][t]}" for p in range(game.player_count)
        )
        tracks.append(
            ChartTrack(
                track=track,
                title=f"{render(track.words).capitalize()} ({render(track.commodity.words)})",
                colour=TRACK_COLOURS[track],
                level=level,
                cells=tuple(cells),
                metropolis=metropolis,
                everyone=everyone,
                castle=castle_words(castles[track], names),
            )
        )
    return tracks


# ---- the barbarian attack --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackRow:
    seat: int
    name: str
    colour: RGBA
    defence: int
    result: str


@dataclass(frozen=True, slots=True)
class AttackView:
    title: str
    headline: str
    """``"Barbarians 5 against defence 4"``"""
    outcome: str
    defended: bool
    strength: int
    defence: int
    rows: tuple[AttackRow, ...]


def attack_view(game: Game, attack: BarbarianAttack | None = None) -> AttackView | None:
    """The last attack (or ``attack``) in words; None before the first attack."""
    attack = attack if attack is not None else game.last_attack
    if attack is None:
        return None
    names = game.config.names
    rows = []
    for p in range(game.player_count):
        if p == attack.defender:
            result = _("Defender of Catan: +1 VP")
        elif p in attack.tied:
            result = _("tied strongest: draws a progress card")
        elif p in attack.losers:
            result = _("loses a city (chooses which)")
        else:
            result = "—"
        cfg = game.config.players[p]
        rows.append(AttackRow(p, cfg.name, player_colour(cfg.colour), attack.defence[p], result))
    if attack.defended:
        if attack.defender != NOBODY:
            outcome = _("Catan is defended. {player} is the Defender of Catan.").format(
                player=names[attack.defender]
            )
        elif attack.tied:
            tied = _and([names[p] for p in attack.tied])
            outcome = _("Catan is defended. {players} tie: each draws a progress card.").format(
                players=tied
            )
        else:
            outcome = _("Catan is defended.")
    elif attack.losers:
        outcome = losers_words([names[p] for p in attack.losers])
    else:
        outcome = _("The barbarians win, but nobody has a city they can take.")
    return AttackView(
        title=_("Barbarian attack {number}").format(number=attack.number),
        headline=_("Barbarians {strength} against defence {defence}").format(
            strength=attack.strength, defence=attack.total_defence
        ),
        outcome=outcome,
        defended=attack.defended,
        strength=attack.strength,
        defence=attack.total_defence,
        rows=tuple(rows),
    )


# ---- statistics ------------------------------------------------------------------------------


BAR_COLOUR: RGBA = (0.85, 0.62, 0.15, 1.0)
SEVEN_COLOUR: RGBA = (0.85, 0.16, 0.14, 1.0)
SHIP_BAR_COLOUR: RGBA = (0.55, 0.50, 0.45, 1.0)
"""The ship face is black on the die; its bar is lighter to stand out from the background."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a histogram: the count observed and the count fair dice lead to expect."""

    label: str
    observed: int
    expected: float
    colour: RGBA = BAR_COLOUR


@dataclass(frozen=True, slots=True)
class ProductionRow:
    seat: int
    name: str
    colour: RGBA
    total: int
    words: str


FAIRNESS_COLOURS: dict[Fairness, RGBA] = {
    Fairness.LOOKS_FAIR: (0.35, 0.80, 0.40, 1.0),
    Fairness.TOO_FEW_ROLLS: (0.75, 0.75, 0.75, 1.0),
    Fairness.SUSPICIOUS: (1.0, 0.45, 0.30, 1.0),
}


@dataclass(frozen=True, slots=True)
class StatisticsView:
    rolls: int
    sums: tuple[Bar, ...]
    """2 … 12 observed against expected (rolls with random production dice)."""
    events: tuple[Bar, ...]
    production: tuple[ProductionRow, ...]
    attacks: tuple[str, ...]
    """One line per attack so far; an empty tuple before the first."""
    p_value: float
    verdict: Fairness
    fairness: str
    """``"Dice look fair (p = 0.42, 36 rolls)"``"""
    verdict_colour: RGBA
    dice_mode: str = "fair"
    sums_title: str = ""
    """The histogram's title, naming the dice mode the bars are held against."""


DICE_MODE_WORDS: dict[str, str] = {
    "fair": N_("fair dice"),
    "balanced": N_("balanced dice"),
    "deck": N_("a card deck"),
}
SUMS_TITLES: dict[str, str] = {
    "fair": N_("Dice sums: bars rolled, white lines what fair dice give"),
    "balanced": N_("Dice sums, balanced dice: bars rolled, white lines the 2d6 they keep to"),
    "deck": N_("Dice sums, card deck: bars rolled, white lines the 36 cards' share"),
}


def _fairness_words(dice: DiceCounts, verdict: Fairness, p_value: float) -> str:
    """The verdict in words: whether the dice behave as the game's mode says."""
    rolls = n_("{count} roll", "{count} rolls", dice.event_rolls)
    mode = dice.mode
    if verdict is Fairness.TOO_FEW_ROLLS:
        return _("Too few rolls to judge the dice yet ({rolls})").format(rolls=rolls)
    p3, p2 = number(p_value, 3), number(p_value, 2)
    if mode == "fair":
        if verdict is Fairness.SUSPICIOUS:
            return _("The dice look suspicious (sums p = {p}, {rolls})").format(p=p3, rolls=rolls)
        return _("The dice look fair (sums p = {p}, {rolls})").format(p=p2, rolls=rolls)
    name = _(DICE_MODE_WORDS[mode])
    if verdict is Fairness.SUSPICIOUS:
        words = _("The dice do not behave as {mode} (sums p = {p}, {rolls})").format(
            mode=name, p=p3, rolls=rolls
        )
    else:
        words = _("The dice behave as {mode} (sums p = {p}, {rolls})").format(
            mode=name, p=p2, rolls=rolls
        )
    if mode == "balanced":
        words += "; " + _("{repeats} repeats in 5 rolls, fair dice ~{expected}").format(
            repeats=dice.repeats, expected=number(dice.expected_repeats())
        )
    return words


def statistics_view(game: Game, stats: GameStatistics | None = None) -> StatisticsView:
    stats = stats if stats is not None else GameStatistics.from_game(game)
    dice = stats.dice
    expected = dice.expected_sums()
    sums = tuple(
        Bar(str(s), dice.sums[i], expected[i], SEVEN_COLOUR if s == 7 else BAR_COLOUR)
        for i, s in enumerate(SUMS)
    )
    n_events = dice.event_rolls
    events = tuple(
        Bar(
            render(EVENT_WORDS[face]),
            dice.events[i],
            n_events * EVENT_PROBABILITIES[i],
            SHIP_BAR_COLOUR if face is EventDie.SHIP else EVENT_COLOURS[face],
        )
        for i, face in enumerate(EVENT_FACES)
    )
    production = []
    for p, cfg in enumerate(game.config.players):
        got = stats.production[p]
        words = render(hand_words(got))
        production.append(ProductionRow(p, cfg.name, player_colour(cfg.colour), sum(got), words))
    attack_view_lines = []
    for attack in stats.attack_log:
        view = attack_view(game, attack)
        assert view is not None
        attack_view_lines.append(f"{attack.number}: {view.headline.lower()} — {view.outcome}")
    chi = dice.sum_fairness()
    verdict = dice.overall()
    return StatisticsView(
        rolls=dice.event_rolls,
        sums=sums,
        events=events,
        production=tuple(production),
        attacks=tuple(attack_view_lines),
        p_value=chi.p_value,
        verdict=verdict,
        fairness=_fairness_words(dice, verdict, chi.p_value),
        verdict_colour=FAIRNESS_COLOURS[verdict],
        dice_mode=dice.mode,
        sums_title=_(SUMS_TITLES[dice.mode]),
    )


# ---- the end of the game ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankRow:
    place: int
    seat: int
    name: str
    colour: RGBA
    victory_points: int
    vp: str
    winner: bool
    luck: str = ""
    """Cards the dice gave against fair dice's average for the same buildings: "luck +2.5"."""


@dataclass(frozen=True, slots=True)
class GameOverView:
    winner: str
    headline: str
    ranking: tuple[RankRow, ...]
    summary: tuple[str, ...]


def game_over_view(game: Game, stats: GameStatistics | None = None) -> GameOverView:
    """The winner, everyone's VP with its breakdown (most first), and a short summary."""
    if not game.is_over:
        raise ValueError("the game is not over yet")
    stats = stats if stats is not None else GameStatistics.from_game(game)
    luck = Luck.from_game(game)
    names = game.config.names
    order = sorted(
        range(game.player_count), key=lambda p: (p != game.winner, -game.victory_points(p), p)
    )
    ranking = tuple(
        RankRow(
            place=i + 1,
            seat=p,
            name=names[p],
            colour=player_colour(game.config.players[p].colour),
            victory_points=game.victory_points(p),
            vp=vp_words(game.victory_point_breakdown(p), at_sea=game.topology.has_sea),
            winner=p == game.winner,
            luck=_("luck {figure}").format(figure=number(luck.figure(p), 1, signed=True)),
        )
        for i, p in enumerate(order)
    )
    view = statistics_view(game, stats)
    turns = n_("{count} turn", "{count} turns", game.turn + 1)
    rolls = n_("{count} roll", "{count} rolls", view.rolls)
    attacks = n_("{count} barbarian attack", "{count} barbarian attacks", stats.attacks)
    production = ", ".join(f"{row.name} {row.total}" for row in view.production)
    summary = (
        f"{turns}, {rolls}, {attacks}",
        view.fairness,
        _("Production: {players} cards").format(players=production),
        n_(
            "Luck: cards the dice gave against what fair dice would have given the same "
            "buildings on average, over {count} roll (+ more, - fewer)",
            "Luck: cards the dice gave against what fair dice would have given the same "
            "buildings on average, over {count} rolls (+ more, - fewer)",
            luck.rolls,
        ),
    )
    return GameOverView(
        winner=names[game.winner],
        headline=_("{player} wins with {points} VP").format(
            player=names[game.winner], points=game.victory_points(game.winner)
        ),
        ranking=ranking,
        summary=summary,
    )


def seat_order(game: Game, seats: Sequence[int] | None = None) -> list[int]:
    """Seats in play order from the player who decides now (whose hand is wanted first)."""
    n = game.player_count
    first = game.prompt.player if 0 <= game.prompt.player < n else game.active
    order = [(first + i) % n for i in range(n)]
    return [p for p in order if seats is None or p in seats]


# ---- card colours -------------------------------------------------------------------------------

CARD_COLOURS: dict[str, RGBA] = {
    **{card.label: colour for card, colour in RESOURCE_COLOURS.items()},
    Card.CLOTH.label: (0.70, 0.55, 0.80, 1.0),
    Card.COIN.label: (0.85, 0.70, 0.30, 1.0),
    Card.PAPER.label: (0.90, 0.88, 0.80, 1.0),
}
"""Resources in their terrain's colour (as on the board), commodities in their own."""


def progress_colour(title: str) -> RGBA:
    """A progress card in its deck's colour (yellow trade, blue politics, green science)."""
    card = progress_card_by_title(title)
    return TRACK_COLOURS[card.track] if card is not None else TRACK_COLOURS[Track.TRADE]
