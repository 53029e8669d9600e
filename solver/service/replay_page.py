"""A replay of a line of moves as one self-contained HTML page, drawn from the games' Pictures.

The page loads nothing from the network: its style and script are inline, the cards are inline
SVG (suits drawn as paths, so no font is needed for them), and the line is embedded as JSON.
Each drawn place carries ``data-label``, ``data-cards`` (card names bottom first) and
``data-face-down``, and the page root ``data-step``, so tests can read the drawn layout.
"""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Mapping, Sequence
from string import Template
from typing import Any, NamedTuple

from rulesets.cards import NAME
from rulesets.picture import Picture


class Step(NamedTuple):
    """One move of the line: the move in words, the table after it, and the labels of the
    places it touched (to be highlighted)."""

    move: str
    picture: Picture
    touched: frozenset[str]


def replay_page(
    header: Mapping[str, str],
    start: Picture,
    steps: Sequence[Step],
    *,
    title: str = "Patience replay",
    opening: str = "the deal as dealt",
) -> str:
    """The HTML page replaying ``steps`` from ``start`` (named ``opening`` at move 0); ``header``
    (game, variant, rules in effect, deal, verdict, score ...) is shown at the top in its own order."""
    data = {
        "header": [[key, value] for key, value in header.items()],
        "opening": opening,
        "steps": [_step_data("", start, frozenset())]
        + [_step_data(step.move, step.picture, step.touched) for step in steps],
    }
    # "<" written as \u003c keeps "</script>" (and "<!--") in move texts from ending the block.
    embedded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return _PAGE.substitute(title=html.escape(title), css=_CSS, js=_JS, data=embedded)


def _step_data(move: str, picture: Picture, touched: frozenset[str]) -> dict[str, Any]:
    """One step as the page's script reads it."""
    rows = [
        {
            "fanned": index < len(picture.fanned) and picture.fanned[index],
            "places": [
                {"label": place.label, "cards": [NAME[code] for code in place.cards], "down": place.face_down}
                for place in row
            ],
        }
        for index, row in enumerate(picture.rows)
    ]
    return {"move": move, "rows": rows, "touched": sorted(touched)}


# The suits as paths in a 100 x 100 box, shared by every card through <use>.
_SUITS = """<svg width="0" height="0" style="position:absolute" aria-hidden="true">
<defs>
<symbol id="suit-H" viewBox="0 0 100 100"><path d="M50 94C22 70 2 54 2 30C2 14 14 3 28 3C39 3
46 10 50 19C54 10 61 3 72 3C86 3 98 14 98 30C98 54 78 70 50 94Z"/></symbol>
<symbol id="suit-D" viewBox="0 0 100 100"><path d="M50 2L88 50L50 98L12 50Z"/></symbol>
<symbol id="suit-S" viewBox="0 0 100 100"><path d="M50 2C78 26 98 42 98 62C98 76 88 85 76 85C66
85 59 80 55 73C56 84 61 92 69 98H31C39 92 44 84 45 73C41 80 34 85 24 85C12 85 2 76 2 62C2 42
22 26 50 2Z"/></symbol>
<symbol id="suit-C" viewBox="0 0 100 100"><circle cx="50" cy="27" r="23"/><circle cx="25"
cy="60" r="23"/><circle cx="75" cy="60" r="23"/><path d="M45 55C45 78 40 90 30 98H70C60 90 55
78 55 55Z"/></symbol>
<pattern id="card-back" width="8" height="8" patternUnits="userSpaceOnUse"
patternTransform="rotate(45)"><rect width="8" height="8" fill="#1f4e8c"/><rect width="3"
height="8" fill="#2f66b0"/></pattern>
</defs>
</svg>"""

#: The table's style, shared by the replay page and the board a Game shows in a notebook: $table
#: is the table's selector, and $scope goes before every other selector (nothing in a notebook's
#: page is styled by the board's rules).
_TABLE_CSS = Template("""
$table { background: var(--felt); border-radius: 12px; padding: 14px;
  display: flex; flex-direction: column; gap: 18px; }
${scope}.row { display: flex; flex-wrap: wrap; gap: 5px; align-items: flex-start; }
${scope}.row.fanned { gap: 16px; }
${scope}.place { display: flex; flex-direction: column; align-items: center; min-width: 64px;
  color: #e8f3ea; font-size: 12px; }
${scope}.place .label { height: 16px; }
${scope}.place .count { height: 16px; margin-top: 4px; opacity: .85; }
${scope}.place svg { display: block; border-radius: 6px; }
${scope}.place.touched svg { outline: 3px solid var(--gold); outline-offset: 2px;
  box-shadow: 0 0 12px var(--gold); }
${scope}.place.touched .label { color: var(--gold); font-weight: 700; }
${scope}.face { fill: #fff; stroke: #777; }
${scope}.back { fill: url(#card-back); stroke: #fff; stroke-width: 2; }
${scope}.empty { fill: none; stroke: #9cc5a8; stroke-dasharray: 5 4; }
${scope}.red { fill: #c8102e; }
${scope}.black { fill: #111; }
${scope}.rank { font: 700 17px system-ui, "DejaVu Sans", sans-serif; }
${scope}.down { font: 700 18px system-ui, "DejaVu Sans", sans-serif; fill: #fff; }
""")

_CSS_TEMPLATE = """
:root { --felt: #2d6a40; --gold: #ffc83d; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
  sans-serif; background: #f3f1ea; color: #222; }
header { padding: 10px 18px 6px; }
h1 { margin: 0 0 6px; font-size: 20px; }
dl { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; }
dl div { display: flex; gap: 6px; }
dt { color: #666; }
dd { margin: 0; font-weight: 600; }
#controls { display: flex; align-items: center; gap: 8px; padding: 8px 18px;
  background: #e4e0d4; position: sticky; top: 0; z-index: 1; }
button { font: inherit; min-width: 40px; height: 32px; padding: 4px 10px; display: flex;
  align-items: center; gap: 6px; border: 1px solid #888;
  border-radius: 6px; background: #fff; cursor: pointer; }
button svg { width: 14px; height: 14px; fill: currentColor; }
button:disabled { opacity: .4; cursor: default; }
#status { margin-left: 10px; font-size: 17px; }
#status b { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
#hint { margin-left: auto; color: #666; font-size: 13px; }
#body { display: flex; align-items: flex-start; gap: 14px; padding: 14px 18px; }
#table { flex: 1; min-height: 200px; }
$table_css#moves { width: 200px; max-height: 80vh; overflow: auto; margin: 0; padding: 6px 6px 6px 34px;
  background: #fff; border-radius: 8px; font-family: ui-monospace, "DejaVu Sans Mono",
  monospace; font-size: 13px; }
#moves li { cursor: pointer; padding: 1px 4px; border-radius: 4px; }
#moves li.done { color: #888; }
#moves li.current { background: var(--gold); color: #000; }
"""
_CSS = Template(_CSS_TEMPLATE).substitute(table_css=_TABLE_CSS.substitute(table="#table", scope=""))

_JS = """
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps, last = steps.length - 1;
const root = document.getElementById("replay");
const W = 64, H = 90, FAN = 24, BACK_FAN = 8;  // card size, fanned offsets (face up, face down)
const PLAY = '<svg viewBox="0 0 16 16"><path d="M4 2v12l10-6z"/></svg>play';
const PAUSE = '<svg viewBox="0 0 16 16"><path d="M3 2h4v12H3zM9 2h4v12H9z"/></svg>pause';
let step = 0, timer = null;

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The card's rank as the moves and positions write it (T for ten), so the page has one spelling.
function face(name, y) {
  const rank = name[0], suit = name[1];
  const colour = "DH".includes(suit) ? "red" : "black";
  return `<g transform="translate(0 ${y})" class="${colour}">` +
    `<rect class="face" x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5"/>` +
    `<text class="rank" x="5" y="19">${rank}</text>` +
    `<use href="#suit-${suit}" x="${W - 20}" y="5" width="15" height="15"/>` +
    `<use href="#suit-${suit}" x="${W / 2 - 17}" y="${H / 2 - 10}" width="34" height="34"/></g>`;
}

function back(y, count) {
  const text = count > 1 ? `<text class="down" x="${W / 2}" y="${y + H / 2 + 6}"` +
    ` text-anchor="middle">${count}</text>` : "";
  return `<rect class="back" x="1" y="${y + 1}" width="${W - 2}" height="${H - 2}" rx="5"/>` + text;
}

// A place's cards as SVG: a fanned place shows every card (face-down ones first, closer
// together, under its face-up ones); any other place, or a fanned one holding only face-down
// cards (Baroness's stock), shows its top card, or one back with the face-down count.
// solver/service/replay_page.py draws the same in Python (place_svg), string for string.
function drawing(place, fanned) {
  let parts = [], top = 0, y = 0;  // top: where the last card drawn starts
  if (fanned && place.cards.length) {
    for (let i = 0; i < place.down; i++, y += BACK_FAN) { top = y; parts.push(back(y, 0)); }
    for (const name of place.cards) { top = y; parts.push(face(name, y)); y += FAN; }
  } else if (place.cards.length) {
    parts.push(face(place.cards[place.cards.length - 1], 0));
  } else if (place.down) {
    parts.push(back(0, place.down));
  }
  if (!parts.length) parts.push(`<rect class="empty" x="2" y="2" width="${W - 4}" height="${H - 4}" rx="5"/>`);
  return `<svg width="${W}" height="${top + H}" viewBox="0 0 ${W} ${top + H}">${parts.join("")}</svg>`;
}

function placeNode(place, fanned, touched) {
  const node = make("div", touched ? "place touched" : "place");
  node.dataset.label = place.label;
  node.dataset.cards = place.cards.join(" ");
  node.dataset.faceDown = place.down;
  const total = place.cards.length + place.down;
  node.append(make("div", "label", place.label));
  node.insertAdjacentHTML("beforeend", drawing(place, fanned));
  const count = !fanned && place.cards.length && total > 1 ? `${total} cards` : "";
  node.append(make("div", "count", count));
  return node;
}

function render() {
  const current = steps[step];
  document.getElementById("table").replaceChildren(...current.rows.map(row => {
    const node = make("div", row.fanned ? "row fanned" : "row");
    node.append(...row.places.map(p => placeNode(p, row.fanned, current.touched.includes(p.label))));
    return node;
  }));
  root.dataset.step = step;
  const status = document.getElementById("status");
  status.replaceChildren(`move ${step} of ${last}: `,
    make("b", "", step ? current.move : data.opening));
  document.querySelectorAll("#moves li").forEach((li, i) => {
    li.className = i + 1 === step ? "current" : i + 1 < step ? "done" : "";
    if (i + 1 === step) li.scrollIntoView({block: "nearest"});
  });
  for (const id of ["first", "back"]) document.getElementById(id).disabled = step === 0;
  for (const id of ["forward", "end"]) document.getElementById(id).disabled = step === last;
  document.getElementById("play").innerHTML = timer ? PAUSE : PLAY;
}

function go(to) {
  step = Math.max(0, Math.min(last, to));
  if (step === last) stop();
  render();
}

function stop() { clearInterval(timer); timer = null; }

function play() {
  if (timer) { stop(); render(); return; }
  if (step === last) step = 0;
  timer = setInterval(() => go(step + 1), 1000);
  render();
}

const header = document.getElementById("header");
for (const [key, value] of data.header) {
  const pair = make("div");
  pair.append(make("dt", "", key), make("dd", "", value));
  header.append(pair);
}
const list = document.getElementById("moves");
steps.slice(1).forEach((s, i) => {
  const li = make("li", "", s.move);
  li.addEventListener("click", () => go(i + 1));
  list.append(li);
});
const actions = {first: () => go(0), back: () => go(step - 1), play: play,
                 forward: () => go(step + 1), end: () => go(last)};
for (const [id, action] of Object.entries(actions)) {
  document.getElementById(id).addEventListener("click", action);
}
const keys = {ArrowLeft: actions.back, ArrowRight: actions.forward, Home: actions.first, End: actions.end};
document.addEventListener("keydown", event => {
  if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
});
render();
"""

_PAGE = Template(
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<style>$css</style>
</head>
<body>
<main id="replay" data-step="0">
<header><h1>$title</h1><dl id="header"></dl></header>
<div id="controls">
<button id="first" title="the deal (Home)"><svg viewBox="0 0 16 16"><path d="M2 2h2v12H2zM14 2v12L5 8z"/></svg></button>
<button id="back" title="back a move (Left arrow)"><svg viewBox="0 0 16 16"><path d="M12 2v12L3 8z"/></svg></button>
<button id="play" title="play or pause"></button>
<button id="forward" title="forward a move (Right arrow)"><svg viewBox="0 0 16 16"><path d="M4 2v12l9-6z"/></svg></button>
<button id="end" title="the last move (End)"><svg viewBox="0 0 16 16"><path d="M2 2v12l9-6zM12 2h2v12h-2z"/></svg></button>
<span id="status"></span>
<span id="hint">← → step · Home End</span>
</div>
<div id="body">
<div id="table"></div>
<ol id="moves"></ol>
</div>
</main>
"""
    + _SUITS
    + """
<script type="application/json" id="replay-data">$data</script>
<script>$js</script>
</body>
</html>
"""
)


# --- The board: the replay page's table drawn in Python, for a Game in a notebook -----------------

#: Card size and fanned offsets (face up, face down), in pixels: the page script's W, H, FAN, BACK_FAN.
_W, _H, _FAN, _BACK_FAN = 64, 90, 24, 8


def _face(name: str, y: int) -> str:
    """One face-up card (``name`` as the notation writes it, ``TH``) whose top is at ``y``."""
    rank, suit = name[0], name[1]
    colour = "red" if suit in "DH" else "black"
    return (
        f'<g transform="translate(0 {y})" class="{colour}">'
        f'<rect class="face" x="1" y="1" width="{_W - 2}" height="{_H - 2}" rx="5"/>'
        f'<text class="rank" x="5" y="19">{rank}</text>'
        f'<use href="#suit-{suit}" x="{_W - 20}" y="5" width="15" height="15"/>'
        f'<use href="#suit-{suit}" x="{_W // 2 - 17}" y="{_H // 2 - 10}" width="34" height="34"/></g>'
    )


def _back(y: int, count: int) -> str:
    """One face-down card whose top is at ``y``, showing ``count`` when it stands for several."""
    text = (
        f'<text class="down" x="{_W // 2}" y="{y + _H // 2 + 6}" text-anchor="middle">{count}</text>'
        if count > 1
        else ""
    )
    return f'<rect class="back" x="1" y="{y + 1}" width="{_W - 2}" height="{_H - 2}" rx="5"/>' + text


def place_svg(cards: Sequence[str], down: int, fanned: bool) -> str:
    """A place's cards as SVG, exactly as the page's script draws them (``drawing``): a fanned place
    shows every card, face-down ones first; any other, or a fanned one holding only face-down
    cards (a stock), its top card or one back with the count."""
    parts, top, y = [], 0, 0
    if fanned and cards:
        for _ in range(down):
            top = y
            parts.append(_back(y, 0))
            y += _BACK_FAN
        for name in cards:
            top = y
            parts.append(_face(name, y))
            y += _FAN
    elif cards:
        parts.append(_face(cards[-1], 0))
    elif down:
        parts.append(_back(0, down))
    if not parts:
        parts.append(f'<rect class="empty" x="2" y="2" width="{_W - 4}" height="{_H - 4}" rx="5"/>')
    return f'<svg width="{_W}" height="{top + _H}" viewBox="0 0 {_W} {top + _H}">{"".join(parts)}</svg>'


def board_html(picture: Picture, touched: Collection[str] = ()) -> str:
    """The table of ``picture`` as the replay page draws it, as one HTML fragment needing no script
    (a notebook shows it inline; its style applies inside it only), ``touched`` places outlined."""
    rows = []
    for index, row in enumerate(picture.rows):
        fanned = index < len(picture.fanned) and picture.fanned[index]
        places = []
        for place in row:
            cards = [NAME[code] for code in place.cards]
            total = len(cards) + place.face_down
            count = f"{total} cards" if not fanned and cards and total > 1 else ""
            places.append(
                f'<div class="place{" touched" if place.label in touched else ""}"'
                f' data-label="{html.escape(place.label)}" data-cards="{" ".join(cards)}"'
                f' data-face-down="{place.face_down}"><div class="label">{html.escape(place.label)}</div>'
                f'{place_svg(cards, place.face_down, fanned)}<div class="count">{count}</div></div>'
            )
        rows.append(f'<div class="row{" fanned" if fanned else ""}">{"".join(places)}</div>')
    style = _TABLE_CSS.substitute(table=".patience-board .table", scope=".patience-board ")
    # As wide as its table (a notebook's output is as wide as the page), in the page's font;
    # after the shared rules, so that it wins over their display: flex.
    variables = (
        ".patience-board { --felt: #2d6a40; --gold: #ffc83d; font: 15px/1.4 system-ui, sans-serif; }"
        ".patience-board .table { display: inline-flex; }"
    )
    return (
        f'<div class="patience-board"><style>{style}{variables}</style>{_SUITS}'
        f'<div class="table">{"".join(rows)}</div></div>'
    )


def outcome_page(outcome: Any) -> str:
    """The replay page of a solved deal or position (a :class:`solver.service.solving.Outcome`):
    its winning line, or its line to the best score when it cannot be won."""
    setup, game = outcome.setup, outcome.setup.game
    options = ", ".join(f"{name}={setup.family.option(name).spell(value)}" for name, value in setup.settings.items())
    score = outcome.score()
    header = {
        "game": setup.family.name,
        "variant": setup.variant,
        "rules": options or "(no options)",
        "from": f"PySolFC deal #{outcome.seed}"
        if outcome.seed is not None
        else "a deal given card by card"
        if outcome.deal
        else "a game in progress (its position)",
        "verdict": outcome.result.verdict.value,
        # the label first, as the printout has it ("piles 1", not "1 piles")
        setup.family.score_label: "no end reached" if score is None else str(score),
    }
    state, steps = outcome.start, []
    for text, move in zip(outcome.line_text(), outcome.result.best_line):
        touched = game.touched(state, move)
        state = game.apply(state, move)
        steps.append(Step(text, game.picture(state), touched))
    title = f"{setup.title()}: {outcome.result.verdict.value}"
    opening = "the deal as dealt" if outcome.deal or outcome.seed is not None else "the position as given"
    return replay_page(header, game.picture(outcome.start), steps, title=title, opening=opening)
