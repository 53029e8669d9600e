"""Positions with a face-down stock: the brace forms read and written back, the count form and
``out:``, every mistake one line and exit code 2, and the commands' records."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.concealed import presets_with_stock, read_concealed, write_concealed
from solver.chance import conceal, unseen
from solver.errors import UserError
from solver.service.setup import Setup
from tests.helpers import PYSOL_DEAL_1, error_line
from tests.helpers import run_cli as run

#: Every preset whose game keeps a stock.
WITH_STOCK = presets_with_stock()


def test_the_presets_with_a_stock_are_the_twelve_expected() -> None:
    assert WITH_STOCK == [
        "idle-year",
        "parlett",
        "self-working",
        "amazons",
        "amazons-dick",
        "amazons-mms",
        "amazons-pysol",
        "baroness",
        "baroness-classic",
        "baroness-pysol",
        "thirteens",
        "nizhni-novgorod",
    ]


PARLETT = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC {5H 8C 4S 5S 5C}"


def played(variant: str, seed: int, steps: int) -> tuple[Setup, object]:
    setup = Setup.of(variant)
    chooser = random.Random(seed)
    state = setup.legal.start(setup.deal(seed=seed + 1))
    for _ in range(steps):
        moves = list(setup.legal.moves(state))
        if not moves or not setup.legal.stock(state):
            break
        after = setup.legal.apply(state, chooser.choice(moves))
        if not setup.legal.stock(after):
            break
        state = after
    return setup, state


@settings(max_examples=40)
@given(variant=st.sampled_from(WITH_STOCK), seed=st.integers(0, 10**5), steps=st.integers(0, 30), data=st.data())
def test_every_face_down_position_round_trips(variant: str, seed: int, steps: int, data: st.DataObject) -> None:
    setup, state = played(variant, seed, steps)
    stock = setup.legal.stock(state)
    hidden = data.draw(st.integers(1, len(stock)))
    position = conceal(setup.legal, state, hidden)
    text = write_concealed(setup.legal, position)
    assert text.count("{") == text.count("}") == 1
    again = read_concealed(setup.family, setup.legal, setup.title(), text)
    assert again == position
    assert write_concealed(setup.legal, again) == text
    assert len(unseen(setup.legal, again)) == hidden


@pytest.mark.parametrize("variant", WITH_STOCK)
def test_the_count_form_finds_the_face_down_cards(variant: str) -> None:
    """``{N}`` with ``out:`` names the same cards as listing them."""
    setup, state = played(variant, 7, 12)
    position = conceal(setup.legal, state, len(setup.legal.stock(state)))
    listed = write_concealed(setup.legal, position)
    on_table = _cards_outside_stock(listed)
    everything = _game_cards(setup)
    gone = sorted(everything - on_table - set(state.stock))  # type: ignore[attr-defined]
    counted = listed.split("stock:")[0] + f"stock: {{{position.hidden}}}" + _after_braces(listed)
    if gone:
        counted += " | out: " + " ".join(_name(code) for code in gone)
    assert read_concealed(setup.family, setup.legal, setup.title(), counted) == position


def _name(code: int) -> str:
    from rulesets.cards import NAME

    return NAME[code]


def _after_braces(text: str) -> str:
    """What follows the braces: a card the rules fix at the stock's end, the other sections."""
    return text[text.index("}") + 1 :]


def _cards_outside_stock(text: str) -> set[int]:
    from rulesets.cards import CardError, parse_card

    found = set()
    for part in text.split("|"):
        if part.strip().startswith("stock"):
            continue
        for word in part.partition(":")[2].replace("/", " ").split():
            try:
                found.add(parse_card(word).code)
            except CardError:
                pass
    return found


def _game_cards(setup: Setup) -> set[int]:
    start = setup.legal.start(setup.deal(seed=1))
    return _cards_outside_stock(setup.legal.write_position(start)) | set(setup.legal.stock(start))


REFUSED = [
    ("parlett", "row: 3D | stock: 4C {5C 5C 6C}", "written twice"),
    ("parlett", "row: 3D | stock: 5C {5C 6C}", "written twice"),
    ("parlett", "row: 3D 5C | stock: {5C 6C}", "both on the table and face down"),
    ("parlett", "row: 3D | stock: {5C 6C", "not closed"),
    ("parlett", "row: 3D | stock: 5C 6C}", "without its '{'"),
    ("parlett", "row: 3D | stock: {}", "braces are empty"),
    ("parlett", "row: 3D | stock: {5C} 6C", "follows the braces"),
    ("parlett", "row: 3D | stock: {5C} {6C}", "one pair of braces"),
    ("parlett", "row: 3D | stock: {0}", "no number of face-down cards here: give from 1 to 52"),
    ("parlett", "row: 3D | stock: {-3}", "no number of face-down cards here: give from 1 to 52"),
    ("amazons", "foundations: - / - / - / - | depots: - / - / - / - | stock: {29}", "give from 1 to 28"),
    ("parlett", "row: 3D | stock: {1234567}", "no number of face-down cards"),
    ("parlett", "row: 3D | stock: - {5H}", "'-' stands for an empty stock"),
    ("parlett", "row: 3D | stock: {5H} -", "'-' stands for an empty stock"),
    ("parlett", "row: KC {9D} | stock: {50}", "section 'row': unknown card"),
    ("nizhni-novgorod", "row: KC 2D QC 7H | stock: {46} KS KD", "(2 written there)"),
    ("baroness-classic", "piles: 2D / QC / 7H / 6S / 8H | grace: - | stock: {43} | out: KS KH", "does not play with"),
    ("parlett", "row: 3D | stock: {12}", "unaccounted for"),
    ("parlett", "row: 3D | stock: {60}", "give from 1 to 52"),
    ("parlett", "row: 3D 4D | stock: {51}", "too many"),
    ("parlett", "row: 3D | stock: {5C 6C} | out: 5C", "both out and in the stock"),
    ("parlett", "row: 3D | stock: 5C 6C | out: 7C", "'out' section"),
    ("accordion", "row: 3D | stock: {5C 6C}", "keeps no stock"),
    ("royal-marriage", "row: QH 3D | stock: {5C 6C}", "keeps no stock"),
    ("baroness", "piles: 7H / 2C / QD / 5S / 9D | grace: - | stock: {AC 3C}", "lacks 3 card(s) of rank 2"),
]


@pytest.mark.parametrize(("game", "position", "words"), REFUSED)
@pytest.mark.parametrize("command", ["solve", "hint"])
def test_each_mistake_is_one_line_and_exit_code_2(game: str, position: str, words: str, command: str) -> None:
    assert words in error_line(run(command, game, "--position", position))


def test_a_face_down_stock_is_refused_where_every_card_must_be_known() -> None:
    line = error_line(run("verify", "parlett", "--position", PARLETT, "--solution", "-", stdin="deal\n"))
    assert "verify takes a --position with braces only with the 'play --json' record" in line


#: Each command taking --position, what else it needs, and the other places it takes a deal from.
SOURCES_BESIDE = [
    ("solve", ("--max-nodes", "1"), ("--seed", "--seeds", "--deal", "--file")),
    ("hint", ("--max-nodes", "1"), ("--seed", "--deal")),
    ("play", ("--player", "random"), ("--seed", "--deal")),
    ("verify", ("--solution", "moves.txt"), ("--seed", "--deal", "--file")),
]
#: A value of each source (the files need not exist: the refusal comes before anything is read).
SOURCE_VALUES = {"--seed": "3", "--seeds": "1-2", "--deal": PYSOL_DEAL_1, "--file": "deals.txt"}


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("command", "extra", "source", "offered"),
    [
        (command, extra, source, ", ".join(sources) + " or --position")
        for command, extra, sources in SOURCES_BESIDE
        for source in sources
    ],
)
def test_braces_beside_another_deal_are_refused_as_without_them(
    command: str, extra: tuple[str, ...], source: str, offered: str
) -> None:
    """Braces or none, a position and a deal given together are refused, naming both (solve once
    answered the braces and dropped the other silently)."""
    for position in (PARLETT, PARLETT.replace("{", "").replace("}", "")):
        line = error_line(run(command, "parlett", *extra, "--position", position, source, SOURCE_VALUES[source]))
        assert line == f"patience: error: give exactly one of {offered} (got {source}, --position)"


@pytest.mark.one_engine
def test_the_api_refuses_braces_beside_another_deal_as_without_them() -> None:
    import solver

    braced = {"position": PARLETT, "seed": 3}
    for call in (
        lambda: solver.solve("parlett", **braced, max_nodes=1),
        lambda: solver.solve("parlett", **braced, max_nodes=1, samples=5),
        lambda: solver.hint("parlett", position=PARLETT, deal=PYSOL_DEAL_1, max_nodes=1),
        lambda: solver.Game("parlett", **braced),
    ):
        with pytest.raises(UserError, match=r"^give exactly one of seed, deal or position$"):
            call()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--samples", "0"), "--samples must be at least 1"),
        (("--seed", "3", "--samples", "10"), "no position with one was given"),
        (("--seed", "3", "--rng-seed", "10"), "no position with one was given"),
        (("--position", PARLETT, "--verdict-code"), "--verdict-code needs every card known"),
        (("--position", PARLETT, "--rng-seed", str(2**64)), "must be from 0 to 2**64 - 1"),
        (("--position", PARLETT, "--samples", str(2**63)), "must be from 1 to 2**63 - 1"),
        (("--position", PARLETT, "--fewest-redeals"), "--fewest-redeals needs every card known"),
    ],
)
def test_options_of_a_face_down_stock_are_refused_where_they_mean_nothing(args: tuple[str, ...], words: str) -> None:
    if "--samples" in args and "0" in args:
        args = ("--position", PARLETT, *args)
    assert words in error_line(run("solve", "parlett", *args))


def test_solve_and_hint_records_carry_both_numbers() -> None:
    solved = run("solve", "parlett", "--position", PARLETT, "--json")
    assert solved.exit_code == 0, solved.stderr
    record = json.loads(solved.stdout)
    assert (
        record["position"]
        == "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC {5C 8C 5H 4S 5S}"
    )
    assert record["unseen"] == ["5C", "8C", "5H", "4S", "5S"]
    assert record["orders"] == 120 and record["exact"] is True
    assert record["clairvoyant"] == record["clairvoyant_low"] == record["clairvoyant_high"]
    assert 0 < record["chance"] <= record["clairvoyant"] < 1
    hinted = json.loads(run("hint", "parlett", "--position", PARLETT, "--json").stdout)
    assert [move["move"] for move in hinted["moves"]] == ["deal 3C"]  # the next card is known
    assert hinted["moves"][0]["chance"] == pytest.approx(record["chance"])
    text = run("solve", "parlett", "--position", PARLETT).stdout
    assert "chance to win with best play: " in text and "(exact)" in text and "of its 120 orders can be won" in text


def test_a_deal_that_turns_up_a_face_down_card_is_written_deal() -> None:
    hinted = run("hint", "parlett", "--position", "row: KC 9D 8S QD 7C KH AS TD 2S | stock: {5H 8C 4S 5S 5C}", "--json")
    moves = [move["move"] for move in json.loads(hinted.stdout)["moves"]]
    assert moves == ["deal"]


# One engine: the command line's repeatability; the engines' equal figures for the same seed are
# test_bracket's (this on the Python engine spent 25 s playing the bracket's lower side).
@pytest.mark.one_engine
def test_sampled_orders_are_repeatable_and_seeded() -> None:
    position = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: {3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC 5H 8C 4S 5S 5C}"
    args = ("solve", "parlett", "--position", position, "--max-nodes", "1000", "--samples", "50", "--json")
    first, again = (json.loads(run(*args).stdout) for _ in range(2))
    assert first == {**again, "seconds": first["seconds"]}
    assert first["exact"] is False and first["orders"] == 50 and first["chance"] is None
    assert first["chance_limit"] == "max_nodes"
    assert first["clairvoyant_low"] <= first["clairvoyant"] <= first["clairvoyant_high"]


# One engine: reading what a player sees; what each engine answers from it is test_bracket's.
@pytest.mark.one_engine
@pytest.mark.parametrize("variant", WITH_STOCK)
def test_every_preset_with_a_stock_answers_both_numbers_from_what_a_player_sees(variant: str) -> None:
    """A deal's opening typed as a player sees it: the table, and the stock as a count."""
    setup = Setup.of(variant)
    start = setup.legal.start(setup.deal(seed=5))
    hidden = len(setup.legal.stock(start))
    written = write_concealed(setup.legal, conceal(setup.legal, start, hidden))
    typed = written[: written.index("{")] + f"{{{hidden}}}" + written[written.index("}") + 1 :]
    for command in ("solve", "hint"):
        ran = run(command, variant, "--position", typed, "--samples", "10", "--max-nodes", "2000", "--json")
        assert ran.exit_code == 0, ran.stderr
        record = json.loads(ran.stdout)
        assert record["orders"] == 10 and record["exact"] is False
        assert record["clairvoyant_low"] <= record["clairvoyant_high"]
        assert record["chance"] is None or 0 <= record["chance"] <= record["clairvoyant_high"]
        assert "chance" in record and "clairvoyant" in record


def _stock_drawn(lines: list[str]) -> str:
    """The stock as a --show picture draws it (its lines joined, where it wraps), its label in
    the column of the other places' (after the picture's indent of 7 and the column of a place's
    ``*``)."""
    at = next(number for number, line in enumerate(lines) if line.strip().startswith("stock:"))
    assert lines[at].startswith(" " * 8 + "stock: "), lines[at]
    drawn = [lines[at].strip()]
    for line in lines[at + 1 :]:
        if ":" in line or not line.startswith(" " * 8):
            break
        drawn.append(line.strip())
    return " ".join(drawn)


@pytest.mark.one_engine
@pytest.mark.parametrize("variant", WITH_STOCK)
@pytest.mark.parametrize("known", [0, 2, 20])
def test_show_draws_the_stock_as_it_will_be_dealt(variant: str, known: int) -> None:
    """``solve --show`` and ``play --show`` draw the stock as the position writes it: the known
    next cards in order, the face-down ones counted, and a last card the rules fix (Nizhni
    Novgorod's) after them (it was once drawn on top, and the known cards but the next one left
    out); 20 known cards wrap under the first."""
    setup = Setup.of(variant)
    start = setup.legal.start(setup.deal(seed=1))
    hidden = len(setup.legal.stock(start)) - known
    written = write_concealed(setup.legal, conceal(setup.legal, start, hidden))
    stock = next(part for part in written.split(" | ") if part.startswith("stock: "))
    before, _, rest = stock.removeprefix("stock: ").partition("{")
    after = rest.partition("}")[2].strip()
    assert len(before.split()) == known and bool(after) == (variant == "nizhni-novgorod")
    wanted = " ".join(part for part in ("stock:", before.strip(), f"[{hidden} face down]", after) if part)
    solved = run("solve", variant, "--position", written, "--show", "--max-nodes", "1", "--samples", "1")
    played = run("play", variant, "--position", written, "--show", "--player", "random")
    for ran in (solved, played):
        assert ran.exit_code == 0, ran.stderr
        assert _stock_drawn(ran.stdout.splitlines()) == wanted


# --- as the player sees it ------------------------------------------------------------------------


@pytest.mark.one_engine  # notation: no search
@settings(max_examples=60)
@given(preset=st.sampled_from(WITH_STOCK), seed=st.integers(1, 10**6), moves=st.integers(0, 80), data=st.data())
def test_a_position_as_seen_reads_back_as_that_position_with_its_stock_face_down(
    preset: str, seed: int, moves: int, data: st.DataObject
) -> None:
    """``write_seen`` (deal --as-seen, solve --show's 'as seen:', Game.position_as_seen) writes the
    stock's undealt cards counted in braces and 'out:' for what left the table: read back, it is
    the position with those cards face down, whatever the game, the deal and the moves played;
    with fewer face down, the known ones stay written before the braces."""
    from rulesets.concealed import write_seen

    setup = Setup.of(preset)
    rules = setup.legal
    chooser = random.Random(seed)
    state = rules.start(setup.deal(seed=seed))
    for _ in range(moves):
        legal = list(rules.moves(state))
        if not legal:
            break
        state = rules.apply(state, chooser.choice(legal))
    stock = len(rules.stock(state))  # type: ignore[attr-defined]
    hidden = data.draw(st.integers(0, stock), label="hidden")
    text = write_seen(setup.family, rules, state, hidden)
    assert ("{" in text) == (hidden > 0) and ("out:" not in text or hidden > 0)
    back = read_concealed(setup.family, rules, setup.title(), text)
    assert back == conceal(rules, state, hidden)  # type: ignore[arg-type]
    if hidden == stock:
        assert write_seen(setup.family, rules, state) == text


@pytest.mark.one_engine
def test_deal_as_seen_prints_the_opening_as_the_player_sees_it() -> None:
    assert run("deal", "parlett", "--seed", "3", "--as-seen").stdout == "row: KC | stock: {51}\n"
    opening = run("deal", "baroness", "--seed", "5", "--as-seen").stdout.strip()
    assert opening == "piles: AH / 8S / 2D / QS / 4C | grace: - | stock: {47}"
    judged = json.loads(run("solve", "baroness", "--position", opening, "--json", "--samples", "20").stdout)
    assert len(judged["unseen"]) == 47


@pytest.mark.one_engine
def test_solve_show_writes_each_position_as_seen_too() -> None:
    shown = run("solve", "parlett", "--seed", "3", "--show").stdout.splitlines()
    seen = [line.strip() for line in shown if line.strip().startswith("as seen: ")]
    assert seen[:2] == ["as seen: row: KC | stock: {51}", "as seen: row: KC 2D | stock: {50}"]
    assert len(seen) == 1 + sum(1 for line in shown if line[:3].strip().isdigit() and line[3:5] == ". ")
    assert seen[-1] == "as seen: row: 5C | stock: -"  # the stock all dealt: nothing face down


def test_game_position_as_seen_keeps_what_the_player_knows() -> None:
    import solver

    game = solver.Game("parlett", seed=3)
    for move in ("deal 2D", "deal QC", "deal 7H"):
        game.play(move)
    assert game.position_as_seen == "row: KC 2D QC 7H | stock: {48}"
    known = solver.Game("parlett", position="row: KC 2D | stock: QC 7H {48}")
    assert known.position_as_seen == "row: KC 2D | stock: QC 7H {48}"
    known.play("deal QC")
    assert known.position_as_seen == "row: KC 2D QC | stock: 7H {48}"


def _seen_lines(lines: list[str]) -> list[str]:
    return [line.strip().removeprefix("as seen: ") for line in lines if line.strip().startswith("as seen: ")]


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", WITH_STOCK)
def test_every_as_seen_line_of_solve_show_reads_back_as_the_cards_the_player_has_seen(preset: str) -> None:
    """Each 'as seen:' of ``solve --show`` is the position beside it with exactly the stock cards
    never yet outside the stock face down (counted independently here: a card once dealt, even
    gathered back into the stock by an Amazons redeal or covered again, is seen)."""
    setup = Setup.of(preset)
    rules = setup.legal
    shown = run("solve", preset, "--seed", "1", "--show").stdout.splitlines()
    positions = [line.strip().removeprefix("position: ") for line in shown if line.strip().startswith("position: ")]
    seen = _seen_lines(shown)
    assert len(seen) == len(positions) > 1
    ever_out: set[int] = set()
    for position, as_seen in zip(positions, seen):
        state = setup.concealed(position).state
        stock = list(rules.stock(state))  # type: ignore[attr-defined]
        ever_out |= set(range(256)) - set(stock)
        hidden = 0
        while hidden < len(stock) and stock[len(stock) - 1 - hidden] not in ever_out:
            hidden += 1
        assert setup.concealed(as_seen) == conceal(rules, state, hidden), (position, as_seen)


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", WITH_STOCK)
def test_every_as_seen_line_of_play_show_reads_back_as_the_position_beside_it(preset: str) -> None:
    """``play --show`` writes each position the player saw twice, its face-down cards named in
    braces and as seen (counted): both read back as one position."""
    shown = run("play", preset, "--seed", "1", "--player", "careful", "--show").stdout.splitlines()
    positions = [line.strip().removeprefix("position: ") for line in shown if line.strip().startswith("position: ")]
    seen = _seen_lines(shown)
    setup = Setup.of(preset)
    assert len(seen) == len(positions) > 1
    for position, as_seen in zip(positions, seen):
        assert setup.concealed(as_seen) == setup.concealed(position), (position, as_seen)
