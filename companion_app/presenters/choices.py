"""The choices behind the game screen's buttons, without Kivy: the turn's action bar (one
button per legal kind), the tree of steps each button or decision opens (spots on the board or
buttons, whose leaves are the rules core's legal actions), and the knights to commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion_app.i18n import Catalogue, render
from companion_app.i18n.current import _
from companion_app.presenters.board_picture import Spot, action_spot
from companion_app.presenters.wording import card_title, describe_action, knight_words
from companion_app.rules.actions import (
    Action,
    BankTrade,
    CommitKnights,
    DisplaceKnight,
    EndSpecialBuild,
    EndTurn,
    MoveKnight,
    MoveShip,
    PlayAlchemist,
    PlayInventor,
    Roll,
)
from companion_app.rules.cards import (
    CARD_KINDS,
    Card,
)
from companion_app.rules.game import Game
from companion_app.rules.messages import N_
from companion_app.rules.progress import harbor_opponents
from companion_app.rules.registry import PRIVATE_TYPES, is_turn


@dataclass(frozen=True, slots=True)
class ActionGroup:
    """Legal actions of one type: placed on the board (``on_board``) or one button each."""

    type_name: str
    title: str
    actions: tuple[Action, ...]
    on_board: bool


_GROUP_TITLES = {
    "build_road": N_("Build a road"),
    "build_settlement": N_("Build a settlement"),
    "build_city": N_("Build a city"),
    "build_city_wall": N_("Build a city wall"),
    "build_knight": N_("Recruit a knight"),
    "activate_knight": N_("Activate a knight"),
    "promote_knight": N_("Promote a knight"),
    "chase_robber": N_("Chase the robber"),
    "move_robber": N_("Move the robber"),
    "move_pirate": N_("Move the pirate"),
    "chase_pirate": N_("Chase the pirate"),
    "lose_city": N_("Choose the city to lose"),
    "place_metropolis": N_("Place the metropolis"),
    "relocate_knight": N_("Move the displaced knight"),
    "build_ship": N_("Build a ship"),
    "move_ship": N_("Move a ship"),
}


def action_groups(actions: Iterable[Action]) -> list[ActionGroup]:
    """Legal actions grouped by type in the rules core's order; rolls are left out (the dice
    box or the on-screen roll button makes them)."""
    grouped: dict[str, list[Action]] = {}
    for action in actions:
        if isinstance(action, Roll):
            continue
        grouped.setdefault(action.type_name, []).append(action)
    groups = []
    for type_name, items in grouped.items():
        on_board = all(action_spot(a) is not None for a in items)
        title = _(_GROUP_TITLES.get(type_name, type_name.replace("_", " ").capitalize()))
        groups.append(ActionGroup(type_name, title, tuple(items), on_board))
    return groups


def wants_board_tap(game: Game) -> bool:
    """True when every legal action is a place on the board (setup, robber, city to lose)."""
    actions = game.legal_actions()
    return bool(actions) and all(action_spot(a) is not None for a in actions)


def hand_counts(hand: Sequence[int]) -> dict[str, int]:
    return {Card(c).label: hand[c] for c in range(CARD_KINDS) if hand[c]}


# ---- the turn: the action bar, prompts and the choices behind each button ----------------------

PROGRESS_KEY = "progress"
"""The action bar's one button for every progress-card play."""
OFFER_KEY = "offer_trade"
HARBOR_KEY = "harbor_exchange"
"""The Commercial Harbor's exchanges, for the rest of the turn it is played in (§10)."""

_BAR: tuple[tuple[str, str, str], ...] = (
    # (key, section, title) in the order the bar shows them
    ("build_road", "Build", N_("Road")),
    ("build_ship", "Build", N_("Ship")),
    ("move_ship", "Build", N_("Move ship")),
    ("build_settlement", "Build", N_("Settlement")),
    ("build_city", "Build", N_("City")),
    ("build_city_wall", "Build", N_("City wall")),
    ("build_knight", "Knights", N_("Recruit knight")),
    ("activate_knight", "Knights", N_("Activate")),
    ("promote_knight", "Knights", N_("Promote")),
    ("move_knight", "Knights", N_("Move knight")),
    ("displace_knight", "Knights", N_("Displace")),
    ("chase_robber", "Knights", N_("Chase robber")),
    ("chase_pirate", "Knights", N_("Chase pirate")),
    ("buy_improvement", "Cities", N_("Improve city")),
    (PROGRESS_KEY, "Cards", N_("Progress card")),
    ("bank_trade", "Trade", N_("Bank / harbour")),
    (OFFER_KEY, "Trade", N_("Offer a player")),
    (HARBOR_KEY, "Trade", N_("Commercial Harbor")),
)
SHIP_KEYS = frozenset({"build_ship", "move_ship"})
"""The bar's ship buttons (§13.3): their places are edges, taken as roads are."""
_BAR_ORDER = {key: i for i, (key, _s, _t) in enumerate(_BAR)}
_BAR_TITLE = {key: title for key, _s, title in _BAR}


def bar_title(key: str, language: Catalogue | None = None) -> str:
    """The action bar's title of a button, in ``language`` (the table's unless told: a phone
    reads its own)."""
    title = _BAR_TITLE.get(key, key.replace("_", " ").capitalize())
    return _(title) if language is None else language.gettext(title)


def private_bar(key: str) -> bool:
    """A bar button whose choices name what the hand holds: the progress cards, and the
    actions declared private (the Commercial Harbor's offers)."""
    return key == PROGRESS_KEY or key in PRIVATE_TYPES


def bar_key(action: Action) -> str:
    """The action bar button that offers ``action`` (all card plays share one)."""
    if action.type_name.startswith("play_"):
        return PROGRESS_KEY
    return action.type_name


@dataclass(frozen=True, slots=True)
class BarButton:
    key: str
    title: str
    types: frozenset[str]
    """The action types behind the button (several for the progress cards)."""
    count: int


def special_building(game: Game) -> bool:
    """A player's special build is on (5-6 players, §12): they build from the turn's bar."""
    phase = game.special_build
    return phase is not None and phase.building


def action_bar(game: Game) -> list[BarButton]:
    """The turn's buttons: one per legal kind of action, none for what is not legal now.

    Rolls and End turn (Done building) have their own big buttons; nothing here outside the
    ``turn`` prompt (and before the roll only the Alchemist, a progress card) and a special
    build, where the same bar offers what may be built (§12).
    """
    own_turn = is_turn(game)
    if not (own_turn or special_building(game)):
        return []
    grouped: dict[str, list[Action]] = {}
    for action in game.legal_actions():
        if isinstance(action, Roll | EndTurn | EndSpecialBuild):
            continue
        grouped.setdefault(bar_key(action), []).append(action)
    if game.may_offer_trade():
        grouped[OFFER_KEY] = []
    if own_turn and game.progress_hand(game.prompt.player):
        # Offered whenever cards are held (their number is public), playable or not, so the
        # bar does not tell the table that an Alchemist or a playable card is in the hand.
        grouped.setdefault(PROGRESS_KEY, [])
    if own_turn and harbor_opponents(game):
        # Offered while an opponent may still be asked, resources held or not: the button
        # does not tell the table whether the hand holds a resource.
        grouped.setdefault(HARBOR_KEY, [])
    buttons = [
        BarButton(
            key,
            bar_title(key),
            frozenset(a.type_name for a in items) or frozenset({key}),
            len(items),
        )
        for key, items in grouped.items()
    ]
    return sorted(buttons, key=lambda b: _BAR_ORDER.get(b.key, len(_BAR)))


def bar_view_height(needed: float, room: float, row: float, gap: float) -> float:
    """The height the action bar is shown at: all of it where it fits in ``room``; else it
    scrolls, showing whole rows and half of the next, so the cut row says there is more (an
    800x480 display, a sea game's twelve buttons: the decision's choices and "Show my cards"
    keep their room below it). Any unit, the same for all four."""
    if needed <= room:
        return needed
    rows = int((room + gap) // (row + gap))
    while rows > 0 and rows * (row + gap) + row / 2 > room:
        rows -= 1
    return rows * (row + gap) + row / 2


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing to tap: a spot on the board or a button; it takes ``action`` or opens
    ``then``."""

    label: str
    spot: Spot | None = None
    action: Action | None = None
    then: ChoiceStep | None = None

    def leads_to(self, action: Action) -> bool:
        if self.action is not None:
            return self.action == action
        return self.then is not None and any(c.leads_to(action) for c in self.then.choices)


@dataclass(frozen=True, slots=True)
class ChoiceStep:
    title: str
    choices: tuple[Choice, ...]
    cols: int = 1
    """Button columns (dice faces and cards read well side by side)."""
    says_how: bool = False
    """The title says how its spots are tapped already ("tap your knight")."""

    @property
    def spots(self) -> dict[Spot, Choice]:
        return {c.spot: c for c in self.choices if c.spot is not None}

    @property
    def buttons(self) -> list[Choice]:
        return [c for c in self.choices if c.spot is None]


def choice_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    """The first step of choosing among ``actions`` (all of one bar button or one prompt)."""
    actions = [a for a in actions if not isinstance(a, CommitKnights)]
    first = actions[0] if actions else None
    if isinstance(first, MoveKnight | DisplaceKnight):
        return _two_spot_step(
            game, actions, title, "node", lambda a: (a.node, a.to), _("tap where it goes")
        )
    if isinstance(first, MoveShip):
        return _ship_move_step(game, actions, title)
    if isinstance(first, PlayInventor):
        return _inventor_step(game, actions, title)
    if isinstance(first, BankTrade):
        return _bank_step(game, actions, title)
    if isinstance(first, PlayAlchemist):
        return _alchemist_step(actions, title)
    choices = spot_choices(game, actions)
    cols = 2 if sum(1 for c in choices if c.spot is None) > 4 else 1
    return ChoiceStep(title, choices, cols)


def spot_choices(game: Game, actions: Sequence[Action]) -> tuple[Choice, ...]:
    """A choice per action, in their order; where actions share a place (a road or a ship on
    a coast edge, §13.2) one choice there opens them as buttons: a tap never picks one of them
    unseen."""
    at: dict[Spot, list[Action]] = {}
    order: list[Spot | Action] = []
    for a in actions:
        spot = action_spot(a)
        if spot is None:
            order.append(a)
            continue
        if spot not in at:
            at[spot] = []
            order.append(spot)
        at[spot].append(a)
    choices = []
    for item in order:
        if isinstance(item, Action):
            choices.append(Choice(describe_action(game, item), None, item))
            continue
        shared = at[item]
        if len(shared) == 1:
            choices.append(Choice(describe_action(game, shared[0]), item, shared[0]))
            continue
        kind, ident = item
        title = (
            _("Edge {edge}: a road or a ship?").format(edge=ident)
            if kind == "edge"
            else _("Choose:")
        )
        buttons = tuple(Choice(describe_action(game, a), None, a) for a in shared)
        # The place stays lit while its pieces are offered as buttons (a tap there takes none).
        here = Choice(title, item)
        choices.append(Choice(title, item, None, ChoiceStep(title, (here, *buttons))))
    return tuple(choices)


def placement_spots(game: Game, actions: Sequence[Action]) -> dict[Spot, Action | Choice]:
    """The setup's places: the action a tap takes, or where a road and a ship share a coast
    edge (a starting ship, §13.3) the choice that asks which."""
    return {
        c.spot: c.action if c.action is not None else c
        for c in spot_choices(game, actions)
        if c.spot is not None
    }


def _ship_move_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    """The ship move (§13.3) in two taps: the ship, then the edge it sails to."""
    by_ship: dict[int, list[MoveShip]] = {}
    for a in actions:
        assert isinstance(a, MoveShip)
        by_ship.setdefault(a.edge, []).append(a)
    return ChoiceStep(
        _("{step}: tap your ship").format(step=title),
        tuple(
            Choice(
                _("Ship at edge {edge}").format(edge=edge),
                ("edge", edge),
                None,
                ChoiceStep(
                    _("Ship at edge {edge}: tap where it sails").format(edge=edge),
                    tuple(Choice(describe_action(game, a), ("edge", a.to), a) for a in items),
                    says_how=True,
                ),
            )
            for edge, items in sorted(by_ship.items())
        ),
        says_how=True,
    )


def _progress_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    if not actions:
        return ChoiceStep(_("None of your progress cards can be played now"), ())
    by_card: dict[str, list[Action]] = {}
    for a in actions:
        by_card.setdefault(card_title(a), []).append(a)
    choices = []
    for card, items in by_card.items():
        if len(items) == 1 and action_spot(items[0]) is None:
            choices.append(Choice(_("Play {card}").format(card=card), None, items[0]))
        else:
            step = choice_step(game, items, card)
            choices.append(Choice(_("Play {card}…").format(card=card), None, None, step))
    return ChoiceStep(title, tuple(choices), 2)


def _two_spot_step(
    game: Game, actions: Sequence[Action], title: str, kind: str, ends: object, second: str
) -> ChoiceStep:
    assert callable(ends)
    by_first: dict[int, list[tuple[int, Action]]] = {}
    for a in actions:
        start, end = ends(a)
        by_first.setdefault(start, []).append((end, a))
    choices = tuple(
        Choice(
            knight_words(game, start),
            (kind, start),
            None,
            ChoiceStep(
                _("{knight}: {what}").format(
                    knight=knight_words(game, start).capitalize(), what=second
                ),
                tuple(Choice(describe_action(game, a), (kind, end), a) for end, a in items),
                says_how=True,
            ),
        )
        for start, items in sorted(by_first.items())
    )
    return ChoiceStep(_("{step}: tap your knight").format(step=title), choices, says_how=True)


def _inventor_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    """Either hex first; the second step offers its partners."""
    partners: dict[int, list[tuple[int, Action]]] = {}
    for a in actions:
        assert isinstance(a, PlayInventor)
        partners.setdefault(a.hex, []).append((a.other, a))
        partners.setdefault(a.other, []).append((a.hex, a))
    tokens = game.tokens
    return ChoiceStep(
        _("{step}: tap a number to swap").format(step=title),
        tuple(
            Choice(
                _("Swap the {number} on hex {hex}").format(number=tokens[h], hex=h),
                ("hex", h),
                None,
                ChoiceStep(
                    _("{step}: swap the {number} with…").format(step=title, number=tokens[h]),
                    tuple(
                        Choice(
                            _("the {number} on hex {hex}").format(number=tokens[o], hex=o),
                            ("hex", o),
                            a,
                        )
                        for o, a in items
                    ),
                ),
            )
            for h, items in sorted(partners.items())
        ),
        says_how=True,
    )


def _bank_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    by_give: dict[Card, list[BankTrade]] = {}
    for a in actions:
        assert isinstance(a, BankTrade)
        by_give.setdefault(a.give, []).append(a)
    choices = []
    for give, items in by_give.items():
        rate = game.trade_rate(items[0].player, give)
        fleet = " (" + _("Merchant Fleet") + ")" if give in game.fleet else ""
        # counted, so the card takes the form its number asks for ("4 cegły", not "4 cegła")
        given = render(give.counted(rate))
        choices.append(
            Choice(
                _("Give {cards}").format(cards=given) + fleet,
                None,
                None,
                ChoiceStep(
                    _("Give {cards} for…").format(cards=given),
                    tuple(Choice(render(a.take.counted(1)), None, a) for a in items),
                    4,
                ),
            )
        )
    return ChoiceStep(_("{step}: what do you give?").format(step=title), tuple(choices), 2)


def _alchemist_step(actions: Sequence[Action], title: str) -> ChoiceStep:
    by_yellow: dict[int, list[PlayAlchemist]] = {}
    for a in actions:
        assert isinstance(a, PlayAlchemist)
        by_yellow.setdefault(a.yellow, []).append(a)
    return ChoiceStep(
        _("{step}: the yellow die shows").format(step=title),
        tuple(
            Choice(
                _("Yellow {number}").format(number=y),
                None,
                None,
                ChoiceStep(
                    _("Yellow {number}; the red die shows").format(number=y),
                    tuple(Choice(_("Red {number}").format(number=a.red), None, a) for a in items),
                    6,
                ),
            )
            for y, items in sorted(by_yellow.items())
        ),
        6,
    )


def bar_step(game: Game, key: str) -> ChoiceStep:
    """What a tap on an action-bar button opens."""
    actions = [a for a in game.legal_actions() if bar_key(a) == key and not isinstance(a, Roll)]
    title = bar_title(key)
    if key == PROGRESS_KEY:
        return _progress_step(game, actions, _("Play a progress card"))
    if key == HARBOR_KEY and not actions:
        return ChoiceStep(_("Commercial Harbor: you hold no resource to offer"), ())
    return choice_step(game, actions, title)


def prompt_step(game: Game) -> ChoiceStep | None:
    """The choices of a decision other than the turn's own (None for turn, roll, a special
    build, game over). Rolls are the dice's (the next player's roll may end the special build
    phase), never buttons."""
    if is_turn(game) or special_building(game) or game.is_over or game.in_setup:
        return None
    actions = [a for a in game.legal_actions() if not isinstance(a, Roll)]
    return choice_step(game, actions, render(game.describe_prompt()))


@dataclass(frozen=True, slots=True)
class KnightChoice:
    node: int
    label: str
    strength: int


def commit_knights(game: Game) -> list[KnightChoice] | None:
    """Evil barbarians: the active knights the decider may send (None if not asked now)."""
    commits = [a for a in game.legal_actions() if isinstance(a, CommitKnights)]
    if not commits:
        return None
    nodes = sorted({n for a in commits for n in a.nodes})
    return [KnightChoice(n, knight_words(game, n), game.knight_level[n]) for n in nodes]


def commit_action(game: Game, nodes: Iterable[int]) -> Action | None:
    """The legal CommitKnights for exactly these knights, if there is one."""
    wanted = tuple(sorted(nodes))
    return next(
        (a for a in game.legal_actions() if isinstance(a, CommitKnights) and a.nodes == wanted),
        None,
    )
