"""Standalone mode (no host): the box's own barbarian track and attack; offline rolls kept and
offered on connect; heartbeats, timeouts, resends and the LED animations, on simulated time."""

from __future__ import annotations

from fwtools import L, S, ScriptedDice, SimBox, rows
from hypothesis import given
from hypothesis import strategies as st

SHIP = (2, 3, "ship")


def frames_between(sim: SimBox, start: int, end: int, step: int = 10) -> list[list]:
    return [sim.box.frame(t) for t in range(start, end, step)]


def test_standalone_track_advances_attacks_and_resets() -> None:
    """Seven ships bring the barbarians (rules §1: 7 advances on the default track)."""
    sim = SimBox(ScriptedDice([SHIP]))
    sim.advance(100)
    assert sim.box.frame(sim.now) == [L.SHIP] + [L.SEA] * 6 + [L.OFF]
    for expected in range(1, 7):
        sim.press()
        assert sim.box.lights.pos == expected
        sim.advance(200)
        assert sim.box.frame(sim.now) == [L.WAKE] * expected + [L.SHIP] + [L.SEA] * (
            6 - expected
        ) + [L.OFF]
    sim.press()  # seventh ship: the barbarians arrive
    arrived = sim.now - 120  # the press happened at the start of press()
    assert sim.box.lights.pos == 7
    attack = frames_between(sim, arrived, arrived + L.Lights.ATTACK_MS)
    red = [L.ALARM] * 8
    dark = [L.OFF] * 7 + [L.ALARM]
    assert all(frame in (red, dark) for frame in attack)
    assert attack.count(red) >= 0.4 * len(attack) and attack.count(dark) >= 0.4 * len(attack)
    assert sim.box.tone(arrived + 10) in L.Lights.ATTACK_TONES_HZ
    sim.advance(L.Lights.ATTACK_MS)
    assert sim.box.lights.pos == 0  # home again
    assert sim.box.frame(sim.now) == [L.SHIP] + [L.SEA] * 6 + [L.OFF]
    for _ in range(7):
        sim.press()
    sim.press()  # a ship during the attack: that attack is over, the ship sails on from home
    assert (sim.box.lights.pos, sim.box.attacks) == (1, 2)
    rolls = [f for kind, f in sim.out() if kind == "ROLL"]
    assert len(rolls) == 15 and all(r["off"] == 1 and r["e"] == "ship" for r in rolls)


def test_a_long_press_sends_the_ship_home_without_a_host() -> None:
    sim = SimBox(ScriptedDice([SHIP]))
    sim.advance(100)
    for _ in range(3):
        sim.press()
    assert sim.box.lights.pos == 3
    sim.press(hold_ms=1000)  # held, but not long enough: a roll, no reset
    assert sim.box.lights.pos == 4
    sim.press(hold_ms=2100)  # a long press: its roll, then the ship goes home
    assert sim.box.lights.pos == 0
    assert len([f for kind, f in sim.out() if kind == "ROLL"]) == 5


def test_castle_colour_flash_after_an_event_die() -> None:
    for event, colour in L.CASTLE.items():
        sim = SimBox(ScriptedDice([(1, 1, event)]))
        sim.advance(100)
        sim.press(hold_ms=1, gap_ms=1)
        start = sim.now - 2
        frames = frames_between(sim, start, start + L.Lights.FLASH_MS + 100)
        flashes = [f for f in frames if f[7] == colour]
        assert len(flashes) >= 0.4 * L.Lights.FLASH_MS / 10
        assert all(f[1:7] == [colour] * 6 and f[0] == L.SHIP for f in flashes)
        assert frames[-1] == [L.SHIP] + [L.SEA] * 6 + [L.OFF]
        assert sim.box.lights.pos == 0  # not a ship: the track does not move


def test_offline_rolls_are_kept_and_offered_on_connect() -> None:
    sim = SimBox(seed=5)
    sim.advance(100)
    for _ in range(5):
        sim.press()
    offline = [f for kind, f in sim.out() if kind == "ROLL"]
    assert [r["seq"] for r in offline] == [1, 2, 3, 4, 5]
    assert all(r["off"] == 1 for r in offline)
    sim.advance(3000)  # nobody listening: rolls stay, heartbeats keep going
    assert [k for k, _ in sim.out()] == ["HB"] * 3
    sim.send("HB")  # a host appears
    out = sim.out()
    assert out[0] == ("HELLO", {**out[0][1], "unacked": 5, "lost": 0})
    assert out[1] == ("OFFLINE", {"n": 5, "first": 1, "last": 5})
    assert out[2:] == [("ROLL", r) for r in offline]
    for r in offline[:3]:
        sim.send("ACK", (("seq", r["seq"]),))
    sim.advance(1000)
    beats = [f for kind, f in sim.out() if kind == "HB"]
    assert beats[-1]["unacked"] == 2
    # A roll with the host present is not offline.
    sim.send("HB")
    sim.press()
    online = [f for kind, f in sim.out() if kind == "ROLL"]
    assert online[-1]["seq"] == 6 and "off" not in online[-1]


def test_ring_keeps_the_newest_64_and_counts_the_lost() -> None:
    sim = SimBox()
    sim.advance(100)
    for _ in range(70):
        sim.press(hold_ms=20, gap_ms=70)
    sim.out()
    sim.send("HELLO")
    out = sim.out()
    assert out[0][0] == "HELLO" and (out[0][1]["unacked"], out[0][1]["lost"]) == (64, 6)
    assert out[1] == ("OFFLINE", {"n": 64, "first": 7, "last": 70})
    # All 64 go out oldest first, as fast as the port takes them (here: drained every 10 ms).
    delivered = [f["seq"] for kind, f in out if kind == "ROLL"]
    assert 0 < len(delivered) <= sim.box.OUTBOX_LINES
    for _ in range(20):
        sim.send("HB")
        sim.advance(10)
        delivered += [f["seq"] for kind, f in sim.out() if kind == "ROLL"]
    assert delivered == list(range(7, 71))
    for seq in delivered:
        sim.send("ACK", (("seq", seq),))
    assert sim.box.ring == []


def test_with_a_host_a_full_ring_refuses_the_press_and_drops_nothing() -> None:
    """A host is there but has acknowledged none of 64 rolls: the 65th press rolls nothing
    (PRESS full=1, a blink), the oldest roll is still kept; each ACK makes room for one more.
    When the host goes, the box rolls on standalone: an offline roll makes room first."""
    sim = SimBox()
    sim.advance(100)
    sim.send("HELLO")
    sim.out()
    for _ in range(64):
        sim.press(hold_ms=20, gap_ms=70)
        sim.send("HB")
        sim.out()
    assert [r.seq for r in sim.box.ring] == list(range(1, 65))
    sim.press(hold_ms=20, gap_ms=70)
    refused = [f for kind, f in sim.out() if kind == "PRESS"]
    assert refused == [{"armed": 1, "t": refused[0]["t"], "full": 1}]
    assert (sim.box.seq, len(sim.box.ring), sim.box.lost) == (64, 64, 0)
    assert sim.box.lights.running(L.BLINK, sim.now - 10)
    sim.send("ACK", (("seq", 1),))
    sim.press(hold_ms=20, gap_ms=70)
    assert [r.seq for r in sim.box.ring] == list(range(2, 66))
    # The host goes away: standalone, the box is the table's only dice and keeps rolling.
    sim.advance(6000)
    assert not sim.box.host
    sim.press(hold_ms=20, gap_ms=70)  # no offline roll yet: the oldest (2) makes room
    assert [r.seq for r in sim.box.ring] == [*range(3, 66), 66]
    sim.press(hold_ms=20, gap_ms=70)  # the oldest offline roll (66) makes room
    assert [r.seq for r in sim.box.ring] == [*range(3, 66), 67]
    assert sim.box.lost == 2


def test_host_gone_after_four_missed_heartbeats() -> None:
    sim = SimBox()
    sim.send("HELLO")
    sim.send("DISARM")
    sim.send("ALCH", (("y", 5), ("r", 5)))
    sim.advance(4400)  # 4 beats missed, within the half-beat grace: still there
    assert sim.box.host and sim.box.status_led(sim.now)
    sim.press()
    assert [k for k, _ in sim.out() if k in ("ROLL", "PRESS")] == ["PRESS"]
    sim.advance(4600 - 4400 - 120)
    assert not sim.box.host
    assert sim.box.alchemist is None  # the Alchemist ends with the host
    blinks = [sim.box.status_led(t) for t in range(sim.now, sim.now + 1000, 10)]
    assert 0 < sum(blinks) < 20  # short blink each second without a host
    sim.press()  # standalone: disarm no longer applies
    rolls = [f for k, f in sim.out() if k == "ROLL"]
    assert len(rolls) == 1 and rolls[0]["off"] == 1 and "alc" not in rolls[0]


def test_unacked_rolls_are_resent_while_the_host_listens() -> None:
    sim = SimBox()
    sim.send("HELLO")
    sim.advance(100)
    sim.press()
    first = [f for k, f in sim.out() if k == "ROLL"]
    for _ in range(3):
        sim.send("HB")
        sim.advance(sim.box.RESEND_MS)
    again = [f for k, f in sim.out() if k == "ROLL"]
    assert again == first * 3
    sim.send("ACK", (("seq", 1),))
    sim.advance(sim.box.RESEND_MS * 2)
    assert [k for k, _ in sim.out() if k == "ROLL"] == []


def test_connected_track_mirrors_the_host() -> None:
    sim = SimBox(ScriptedDice([SHIP]))
    sim.send("HELLO")
    sim.advance(100)
    sim.press()
    assert sim.box.lights.pos == 0  # with a host, the host moves the ship
    sim.send("TRACK", (("pos", 1), ("len", 7)))
    assert sim.box.frame(sim.now + 1000)[:2] == [L.WAKE, L.SHIP]
    sim.send("TRACK", (("pos", 4), ("len", 5)))  # a shorter track is spread over the 7 LEDs
    assert sim.box.frame(sim.now + 1000) == [L.WAKE] * 6 + [L.SHIP, L.ALARM]
    sim.send("TRACK", (("pos", 8), ("len", 16)))  # and a longer one squeezed onto them
    assert sim.box.frame(sim.now + 1000)[3] == L.SHIP
    sim.send("ATTACK")
    assert sim.box.frame(sim.now + 1) == [L.ALARM] * 8
    sim.advance(L.Lights.ATTACK_MS + 10)
    assert sim.box.lights.pos == 8  # the host decides where the ship goes after an attack


@given(st.integers(2, 16).flatmap(lambda n: st.tuples(st.integers(0, n - 1), st.just(n))))
def test_ship_led_is_monotonic_and_ends_on_the_last_space(track: tuple[int, int]) -> None:
    pos, length = track
    lights = L.Lights(8)
    lights.set_track(pos, length)
    led = lights.ship_led()
    assert 0 <= led <= 6
    assert (led == 6) == (pos == length - 1) or length > 7
    if pos == 0:
        assert led == 0
    if pos + 1 < length:
        lights.set_track(pos + 1, length)
        assert lights.ship_led() >= led


def test_disarmed_blink_and_led_test_frames() -> None:
    sim = SimBox()
    sim.send("HELLO")
    sim.send("DISARM")
    sim.advance(100)
    sim.press(hold_ms=1, gap_ms=1)
    start = sim.now - 2
    frames = frames_between(sim, start, start + L.Lights.BLINK_MS)
    assert frames.count([L.AMBER] * 8) >= len(frames) // 3
    assert sim.box.tone(start + 5) == L.Lights.BLINK_TONE_HZ
    sim.advance(1000)
    sim.send("LEDTEST")
    start = sim.now
    step = L.Lights.TEST_STEP_MS
    for i, colour in enumerate(L.TEST_COLOURS):
        assert sim.box.frame(start + i * step + 1) == [colour] * 8
    chase = [sim.box.frame(start + 4 * step + (i * step + 7) // 8) for i in range(8)]
    assert [f.index(L.TEST_COLOURS[3]) for f in chase] == list(range(8))
    assert sim.box.frame(start + 5 * step) == [L.SHIP] + [L.SEA] * 6 + [L.OFF]


def play_beside_the_rules(seed: int, rolls: int, draw: bool) -> tuple[int, int, int]:
    """The same rolls on the box alone and in the rules core (a 4-player game played at random
    between rolls, gaps between presses from 0.2 s to 4 s: some within the attack's 3 s
    animation). After every roll the box's track, its attacks and its display say what the
    rules' barbarian track says (§1, §7): the same space, or, on the roll that made the rules
    attack, the ship arrived and the attack shown. With ``draw``, the screen is drawn too and a 7
    shows the robber. Returns (attacks, sevens, rolls made during an attack's animation)."""
    from companion_app.rules.actions import EventDie, Roll
    from companion_app.rules.config import GameConfig
    from companion_app.rules.game import Game
    from companion_app.rules.randomplay import choose_random_action
    from companion_app.rules.rng import SplitMix64

    sim = SimBox(seed=seed)
    game = Game.new(GameConfig.for_players(4, seed=seed))
    rng = SplitMix64(seed)
    sim.advance(100)
    sevens = during_attack = 0
    for n in range(rolls):
        while not game.awaiting_roll:
            game.apply(choose_random_action(game, rng))
        attacks_before = game.barbarian_attacks
        during_attack += sim.box.lights.running(L.ATTACK, sim.now)
        sim.box.press(sim.now)
        yellow, red, event, _at = sim.box.last_roll
        game.apply(Roll(game.active, yellow, red, EventDie(event)))
        state = sim.box.screen_state(sim.now)
        where = (seed, n)
        assert state[:3] == (yellow, red, event), where
        if game.barbarian_attacks > attacks_before:  # the rules' ship arrived and attacked
            assert sim.box.lights.arrived() and state[6] >= 0, where  # the attack on the display
        else:
            assert sim.box.lights.pos == state[4] == game.barbarian_position, where
            assert state[6] < 0, where
        assert sim.box.attacks == game.barbarian_attacks, where
        if draw:
            screen = S.Screen()
            screen.draw(state)
            robber = rows(screen.buf)[10][96:104] == "#" * 8  # the sum's inverted box
            assert robber == (yellow + red == 7), where
        sevens += yellow + red == 7
        sim.advance(200 + 100 * rng.below(39), step=100)
    kept = sim.box.ring  # nobody listened: every roll is kept, offline, for a host to come
    assert [r.seq for r in kept] == list(range(1, rolls + 1)) and all(r.offline for r in kept)
    return game.barbarian_attacks, sevens, during_attack


def test_a_60_roll_game_without_a_host_agrees_with_the_rules_core() -> None:
    attacks, sevens, during_attack = play_beside_the_rules(60, 60, draw=True)
    assert attacks >= 2 and sevens >= 3 and during_attack >= 1


def test_the_box_alone_agrees_with_the_rules_over_200_games() -> None:
    """Seeds 0-199, 40 rolls each: the box's track and the rules' never disagree, and rolls
    come during an attack's animation in many of them."""
    games = [play_beside_the_rules(seed, 40, draw=False) for seed in range(200)]
    assert sum(attacks > 0 for attacks, _, _ in games) >= 190
    assert sum(during > 0 for _, _, during in games) >= 150


def test_a_roll_during_the_attack_ends_it() -> None:
    """The rules send the ship home at the attack (§7): a roll that is not a ship, made while
    the attack's animation still runs, shows the ship home at once; the attack is not counted
    again."""
    sim = SimBox(ScriptedDice([SHIP] * 7 + [(1, 2, "trade"), SHIP]))
    sim.advance(100)
    for _ in range(7):
        sim.press()
    assert sim.box.lights.arrived() and sim.box.attacks == 1
    sim.press()  # a castle, 120 ms into the attack
    assert (sim.box.lights.pos, sim.box.attacks) == (0, 1)
    assert sim.box.screen_state(sim.now)[6] < 0  # no attack on the display
    assert sim.box.frame(sim.now + L.Lights.FLASH_MS) == [L.SHIP] + [L.SEA] * 6 + [L.OFF]
    sim.advance(L.Lights.ATTACK_MS)
    sim.press()  # the ship sails on from home
    assert (sim.box.lights.pos, sim.box.attacks) == (1, 1)


def test_a_beep_sounds_its_length_from_when_it_is_first_played() -> None:
    """The press's click is asked for at the press and played by a later tick (after the
    display and the flash record, 30-45 ms on the Pico): it sounds 40 ms from there."""
    lights = L.Lights(8)
    lights.beep(1000, L.Lights.ROLL_TONE_HZ, L.Lights.ROLL_TONE_MS)
    assert lights.tone(1045) == L.Lights.ROLL_TONE_HZ  # the first tick after the press
    assert lights.tone(1084) == L.Lights.ROLL_TONE_HZ
    assert lights.tone(1085) == 0
