"""The replay page: self-contained HTML, and, in headless Chromium, a drawn table that follows the
line move by move under the arrow keys and buttons with no console error.

The sample tables are built here as Pictures shaped like the games' (an Accordion row wrapped
13 a line, Baroness's fanned piles and stock, Amazons' foundations, fanned depots and stock), by
small plays that need not follow any game's rules exactly. Screenshots go to the folder named by
PATIENCE_SCREENSHOTS (kept), else to a temporary folder; the test prints where.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import solver
from rulesets.cards import MATCH, NAME, RANK, SUIT
from rulesets.picture import Picture, Place
from solver.service.replay_page import Step, board_html, place_svg, replay_page

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


class Sample(NamedTuple):
    """A replay to draw: its name (for screenshots), header, first picture and steps."""

    name: str
    header: dict[str, str]
    start: Picture
    steps: list[Step]


def _header(game: str, verdict: str, score: str) -> dict[str, str]:
    return {"game": game, "variant": game, "rules": "(defaults)", "deal": "7", "verdict": verdict, "score": score}


def _accordion() -> Sample:
    """A row of piles wrapped 13 a line; each move puts the first pile that can go onto its
    neighbour or the pile three to its left."""
    deck = list(range(52))
    random.Random(7).shuffle(deck)
    piles: list[tuple[int, ...]] = [(code,) for code in deck]

    def picture() -> Picture:
        places = [Place(str(i + 1), pile) for i, pile in enumerate(piles)]
        return Picture(tuple(tuple(places[i : i + 13]) for i in range(0, len(places), 13)))

    start, steps = picture(), list[Step]()
    while len(steps) < 30:
        moves = [
            (i, i - gap)
            for i in range(len(piles))
            for gap in (1, 3)
            if i - gap >= 0 and MATCH[piles[i][-1]][piles[i - gap][-1]]
        ]
        if not moves:
            break
        source, target = moves[0]
        text = f"{NAME[piles[source][-1]]} -> {NAME[piles[target][-1]]}"
        piles[target] = piles[target] + piles[source]
        del piles[source]
        steps.append(Step(text, picture(), frozenset({str(target + 1), str(source + 1)})))
    return Sample("accordion", _header("accordion", "lost", f"{len(piles)} piles"), start, steps)


def _baroness() -> Sample:
    """Five fanned piles dealt from a stock; a move removes a King or two tops adding to 13."""
    stock = list(range(52))
    random.Random(3).shuffle(stock)
    piles: list[list[int]] = [[] for _ in range(5)]

    def picture() -> Picture:
        return Picture(
            (
                tuple(Place(f"pile {i + 1}", tuple(pile)) for i, pile in enumerate(piles)),
                (Place("stock", face_down=len(stock)),),
            ),
            fanned=(True, False),
        )

    def deal() -> Step:
        for pile in piles:
            if stock:
                pile.append(stock.pop())
        return Step("deal", picture(), frozenset({"stock"} | {f"pile {i + 1}" for i in range(5)}))

    start, steps = picture(), [deal()]
    while len(steps) < 25:
        tops = [(i, pile[-1]) for i, pile in enumerate(piles) if pile]
        pairs = [[i] for i, top in tops if RANK[top] == 13] + [
            [i, j] for i, a in tops for j, b in tops if i < j and RANK[a] + RANK[b] == 13
        ]
        if pairs:
            text = " + ".join(NAME[piles[i][-1]] for i in pairs[0])
            for i in pairs[0]:
                piles[i].pop()
            steps.append(Step(text, picture(), frozenset(f"pile {i + 1}" for i in pairs[0])))
        elif stock:
            steps.append(deal())
        else:
            break
    left = sum(map(len, piles)) + len(stock)
    return Sample("baroness", _header("baroness", "lost", f"{left} cards left"), start, steps)


def _amazons() -> Sample:
    """Foundations built up by suit from the Ace over the ranks A 7..K, four fanned depots dealt
    a card each from the stock, and a stock that is gathered up again (a redeal) when empty."""
    deck = [code for code in range(52) if RANK[code] == 1 or RANK[code] >= 7]
    random.Random(5).shuffle(deck)
    ranks = [1, 7, 8, 9, 10, 11, 12, 13]
    foundations: list[list[int]] = [[] for _ in range(4)]
    depots: list[list[int]] = [[] for _ in range(4)]

    def picture() -> Picture:
        return Picture(
            (
                tuple(Place(f"F{i + 1}", tuple(f)) for i, f in enumerate(foundations)),
                tuple(Place(f"D{i + 1}", tuple(d)) for i, d in enumerate(depots)),
                (Place("stock", face_down=len(deck)),),
            ),
            fanned=(False, True, False),
        )

    def playable() -> tuple[int, int] | None:
        for d, depot in enumerate(depots):
            for card in depot[-1:]:
                built = foundations[SUIT[card]]
                if RANK[card] == ranks[len(built)]:
                    return d, SUIT[card]
        return None

    start, steps = picture(), list[Step]()
    while len(steps) < 40 and sum(map(len, foundations)) < 32:
        move = playable()
        if move:
            depot, suit = move
            text = f"{NAME[depots[depot][-1]]} -> F{suit + 1}"
            foundations[suit].append(depots[depot].pop())
            touched = frozenset({f"D{depot + 1}", f"F{suit + 1}"})
        elif deck:
            for target in depots[: len(deck)]:
                target.append(deck.pop())
            text, touched = "deal", frozenset({"stock"} | {f"D{i + 1}" for i in range(4)})
        else:
            deck = [card for depot in reversed(depots) for card in reversed(depot)]
            depots = [[] for _ in range(4)]
            text, touched = "redeal", frozenset({"stock"} | {f"D{i + 1}" for i in range(4)})
        steps.append(Step(text, picture(), touched))
    left = 32 - sum(map(len, foundations))
    return Sample("amazons", _header("amazons", "lost", f"{left} cards left"), start, steps)


def _face_down() -> Sample:
    """Fanned piles with face-down cards under the face-up ones; each move turns one up."""
    deck = list(range(0, 52, 3))
    random.Random(11).shuffle(deck)
    piles = [deck[i * 5 : i * 5 + 5] for i in range(3)]
    face_down = [4, 4, 4]

    def picture() -> Picture:
        return Picture(
            (
                tuple(
                    Place(f"{i + 1}", tuple(pile[down:]), down) for i, (pile, down) in enumerate(zip(piles, face_down))
                ),
            ),
            fanned=(True,),
        )

    start, steps = picture(), list[Step]()
    for turn in range(12):
        pile = turn % 3
        face_down[pile] -= 1
        steps.append(Step(f"turn up {NAME[piles[pile][face_down[pile]]]}", picture(), frozenset({str(pile + 1)})))
    return Sample("face-down", _header("face-down piles", "won", "0 cards left"), start, steps)


def _solved(preset: str, seed: int) -> Sample:
    """A real game's replay, drawn from its own pictures (Baroness's stock sits in a fanned row)."""
    solved = solver.solve(preset, seed=seed)
    outcome = solved.outcome
    game, state, steps = outcome.setup.game, outcome.start, []
    for text, move in zip(outcome.line_text(), outcome.result.best_line):
        touched = game.touched(state, move)
        state = game.apply(state, move)
        steps.append(Step(text, game.picture(state), frozenset(touched)))
    header = _header(preset, solved.result, f"{solved.score} {outcome.setup.family.score_label}")
    return Sample(f"{preset}-{seed}", header, game.picture(outcome.start), steps)


SAMPLES = [_accordion(), _baroness(), _amazons(), _face_down(), _solved("baroness", 3)]


def test_samples_are_long_enough_to_step_through() -> None:
    for sample in SAMPLES:
        assert len(sample.steps) >= 10, sample.name


# --- The page as text: self-contained, data embedded safely -------------------------------------


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda sample: sample.name)
def test_page_loads_nothing_from_elsewhere(sample: Sample) -> None:
    page = replay_page(sample.header, sample.start, sample.steps)
    assert set(re.findall(r"https?://[^\s\"'<>)]*", page)) <= {SVG_NAMESPACE}
    assert "<link" not in page.lower()
    assert not re.search(r"<script[^>]*\bsrc\s*=", page, re.IGNORECASE)
    assert "@import" not in page and "url(" not in page.replace("url(#card-back)", "")


def _embedded(page: str) -> Any:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL)
    assert found, "no embedded data block"
    return json.loads(found.group(1))


def test_move_text_cannot_end_the_data_block() -> None:
    hostile = "</script><script>alert(1)</script><!--"
    picture = Picture(((Place("1", (0,)),),))
    page = replay_page({"game": "</title>x"}, picture, [Step(hostile, picture, frozenset({"1"}))])
    assert "</script><script>alert" not in page
    data = _embedded(page)
    assert data["steps"][1]["move"] == hostile and data["header"] == [["game", "</title>x"]]


def test_embedded_data_is_the_line_in_order() -> None:
    sample = SAMPLES[1]
    data = _embedded(replay_page(sample.header, sample.start, sample.steps))
    assert data["header"] == [list(pair) for pair in sample.header.items()]
    assert [step["move"] for step in data["steps"]] == [""] + [s.move for s in sample.steps]
    assert [step["rows"] for step in data["steps"]] == [
        _expected_rows(picture, frozenset(), with_drawing=False)
        for picture in [sample.start] + [s.picture for s in sample.steps]
    ]


def _expected_rows(picture: Picture, touched: frozenset[str], with_drawing: bool) -> list[Any]:
    """The rows as the embedded data holds them, or (``with_drawing``) as the page draws them."""
    rows = []
    for index, row in enumerate(picture.rows):
        fanned = index < len(picture.fanned) and picture.fanned[index]
        if not with_drawing:
            rows.append(
                {
                    "fanned": fanned,
                    "places": [
                        {"label": p.label, "cards": [NAME[c] for c in p.cards], "down": p.face_down} for p in row
                    ],
                }
            )
            continue
        places = []
        for place in row:
            # A fanned place shows every card; a place holding only face-down cards (a stock, fanned or
            # not) shows one back with their count, as does any place not fanned.
            spread = fanned and bool(place.cards)
            shown = place.cards if spread else place.cards[-1:]
            backs = place.face_down if spread else int(bool(place.face_down and not place.cards))
            places.append(
                {
                    "label": place.label,
                    "cards": " ".join(NAME[c] for c in place.cards),
                    "faceDown": str(place.face_down),
                    "touched": place.label in touched,
                    "drawn": [NAME[c] for c in shown],
                    "backs": backs,
                }
            )
        rows.append({"fanned": fanned, "places": places})
    return rows


# --- In a real browser --------------------------------------------------------------------------

# Reads the drawn table: each place's data attributes, highlight, and the cards its SVG shows
# (rank text and suit symbol of each face, the count of backs).
READ_TABLE = """
return [...document.querySelectorAll('#table .row')].map(row => ({
  fanned: row.classList.contains('fanned'),
  places: [...row.querySelectorAll('.place')].map(p => ({
    label: p.dataset.label, cards: p.dataset.cards, faceDown: p.dataset.faceDown,
    touched: p.classList.contains('touched'),
    drawn: [...p.querySelectorAll('svg g')].map(g =>
      g.querySelector('text.rank').textContent +
      g.querySelector('use').getAttribute('href').slice(-1)),
    backs: p.querySelectorAll('svg .back').length,
  })),
}));
"""

INSTALL = (
    "the browser test needs Chromium and chromedriver: on Debian "
    "`apt-get install chromium chromium-driver` (.ci/run does this when they are missing)"
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium driven by selenium, with the browser console log kept."""
    try:
        from selenium import webdriver
    except ImportError:
        pytest.skip("the browser test needs selenium: pip install -e '.[test]'")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        pytest.skip(INSTALL)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(chromedriver))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kept = os.environ.get("PATIENCE_SCREENSHOTS")
    folder = Path(kept) if kept else tmp_path_factory.mktemp("replay-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nreplay page screenshots in {folder}")
    return folder


def _press(driver: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    if times:
        ActionChains(driver, duration=0).send_keys(*[key] * times).perform()


def _check_step(driver: Any, sample: Sample, k: int) -> None:
    """The page shows step k: its root says so, the status names the move, and the drawn
    table is the step's picture with the step's places highlighted."""
    step = Step("the deal as dealt", sample.start, frozenset()) if k == 0 else sample.steps[k - 1]
    picture, touched, move = step.picture, step.touched, step.move
    assert driver.find_element("id", "replay").get_attribute("data-step") == str(k)
    status = driver.find_element("id", "status").text
    assert status == f"move {k} of {len(sample.steps)}: {move}"
    assert driver.execute_script(READ_TABLE) == _expected_rows(picture, touched, with_drawing=True)


def _screenshot(driver: Any, folder: Path, name: str) -> None:
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": max(600, height), "deviceScaleFactor": 1, "mobile": False},
    )
    path = folder / f"{name}.png"
    assert driver.save_screenshot(str(path)), f"no screenshot at {path}"
    print(f"  {path}")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda sample: sample.name)
def test_arrow_keys_step_through_the_line(browser: Any, screenshots: Path, tmp_path: Path, sample: Sample) -> None:
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / f"{sample.name}.html"
    page.write_text(replay_page(sample.header, sample.start, sample.steps, title=sample.name), encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.get(page.as_uri())
    last = len(sample.steps)
    at = 0
    _check_step(browser, sample, 0)
    for k in (1, 2, 5, last // 2, last):
        _press(browser, Keys.ARROW_RIGHT, k - at)
        at = k
        _check_step(browser, sample, k)
        if k == last // 2:
            _screenshot(browser, screenshots, f"{sample.name}-move-{k}")
    _press(browser, Keys.ARROW_RIGHT)  # past the end: stays on the last move
    _check_step(browser, sample, last)
    _press(browser, Keys.ARROW_LEFT, 3)
    _check_step(browser, sample, last - 3)
    _press(browser, Keys.HOME)
    _check_step(browser, sample, 0)
    _press(browser, Keys.ARROW_LEFT)  # before the start: stays on the deal
    _check_step(browser, sample, 0)
    _press(browser, Keys.END)
    _check_step(browser, sample, last)
    _screenshot(browser, screenshots, f"{sample.name}-end")
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


def test_buttons_step_and_play(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    sample = SAMPLES[0]
    page = tmp_path / "buttons.html"
    page.write_text(replay_page(sample.header, sample.start, sample.steps), encoding="utf-8")
    browser.get(page.as_uri())
    click = {name: browser.find_element("id", name).click for name in ("first", "back", "play", "forward", "end")}
    click["forward"]()
    click["forward"]()
    _check_step(browser, sample, 2)
    click["back"]()
    _check_step(browser, sample, 1)
    click["end"]()
    _check_step(browser, sample, len(sample.steps))
    click["first"]()
    _check_step(browser, sample, 0)
    click["play"]()  # plays one move a second
    WebDriverWait(browser, 5).until(
        lambda driver: driver.find_element("id", "replay").get_attribute("data-step") == "2"
    )
    click["play"]()  # pauses
    paused = browser.find_element("id", "replay").get_attribute("data-step")
    assert browser.find_element("id", "play").text == "play"
    browser.execute_script("return new Promise(done => setTimeout(done, 1500))")
    assert browser.find_element("id", "replay").get_attribute("data-step") == paused
    _check_step(browser, sample, int(paused))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_page_from_a_position_says_so_where_a_deal_page_says_the_deal():
    """Move 0 of a game in progress is the position given, not a deal as dealt."""
    import solver

    position = solver.solve("accordion", position="row: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S").to_html()
    data = _embedded(position)
    assert data["opening"] == "the position as given"
    assert ["from", "a game in progress (its position)"] in data["header"]
    dealt = _embedded(solver.solve("accordion", seed=7).to_html())
    assert dealt["opening"] == "the deal as dealt" and ["from", "PySolFC deal #7"] in dealt["header"]


# --- One drawing of a table: the page's script and the board a Game shows in a notebook ---------


def _every_place() -> list[tuple[list[str], int, bool]]:
    """Every place of every sample's every step, as (cards, face-down count, fanned)."""
    found = []
    for sample in SAMPLES:
        for picture in [sample.start, *(step.picture for step in sample.steps)]:
            for index, row in enumerate(picture.rows):
                fanned = index < len(picture.fanned) and picture.fanned[index]
                found += [([NAME[c] for c in place.cards], place.face_down, fanned) for place in row]
    return list({repr(place): place for place in found}.values())


def test_the_page_and_the_board_draw_every_place_alike(browser: Any, tmp_path: Path) -> None:
    """The page's script (``drawing``) and Python (``place_svg``) give the same SVG, character for
    character, for every place of the samples: one drawing, whichever draws it."""
    sample = SAMPLES[0]
    page = tmp_path / "drawing.html"
    page.write_text(replay_page(sample.header, sample.start, sample.steps), encoding="utf-8")
    browser.get(page.as_uri())
    places = _every_place()
    drawn = browser.execute_script(
        "return arguments[0].map(([cards, down, fanned]) => drawing({cards: cards, down: down}, fanned));", places
    )
    assert drawn == [place_svg(cards, down, fanned) for cards, down, fanned in places]
    assert any(not cards and down > 1 and fanned for cards, down, fanned in places)  # a stock in a fanned row


def test_the_baroness_stock_is_one_back_with_its_count(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    """Baroness's stock sits in a fanned row: it is drawn as one card back showing its count (it
    was 47 overlapping backs, 460 px tall), as Accordion's and Amazons' stocks are."""
    page = tmp_path / "baroness.html"
    page.write_text(solver.solve("baroness", seed=3).to_html(), encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.get(page.as_uri())
    stock = browser.find_element("css selector", '.place[data-label="stock"]')
    assert stock.get_attribute("data-face-down") == "47"
    svg = stock.find_element("css selector", "svg")
    assert svg.get_attribute("height") == "90" and len(stock.find_elements("css selector", ".back")) == 1
    assert stock.find_element("css selector", "text.down").text == "47"
    _screenshot(browser, screenshots, "baroness-3-start")


def test_a_games_board_draws_in_a_browser_as_the_page_does(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    """The notebook board of a Game (``_repr_html_``), alone on a page: the same places, cards and
    highlight as the replay page would draw, no script needed, and tens written T as in the moves."""
    game = solver.Game("baroness", seed=3)
    game.replay(["discard KC", "discard 6S+7H", "deal"])
    page = tmp_path / "board.html"
    page.write_text(f"<!DOCTYPE html><html><body>{game._repr_html_()}</body></html>", encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.get(page.as_uri())
    picture = game._rules.picture(game.state)
    touched = game._touched()
    read = browser.execute_script(READ_TABLE.replace("#table .row", ".patience-board .row"))
    assert read == _expected_rows(picture, touched, with_drawing=True)
    ranks = browser.execute_script("return [...document.querySelectorAll('text.rank')].map(t => t.textContent)")
    assert "10" not in ranks and set(ranks) <= set("A23456789TJQK")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert board_html(picture, touched) in game._repr_html_()
    _screenshot(browser, screenshots, "board-baroness-3")
