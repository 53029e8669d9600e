"""The patience command as a user meets it: output, JSON records, verification and bad input."""

import json

import pytest
from helpers import PYSOL_DEAL_1
from helpers import run_cli as run

SEED_1 = PYSOL_DEAL_1


def test_games_and_describe_list_variants_and_options():
    assert "idle-year" in run("games").output
    text = run("describe", "accordion").output
    for word in ("compulsory", "nearest", "leap_only_without_slide", "order", "default no", "self-working"):
        assert word in text


def test_deal_prints_the_pysolfc_deal():
    result = run("deal", "accordion", "--seed", "1")
    assert result.exit_code == 0 and result.output.strip() == SEED_1


def test_solve_prints_numbered_moves_and_the_json_record():
    text = run("solve", "accordion", "--seed", "7")
    assert text.exit_code == 0
    assert "result: won" in text.output and "piles (minimum): 1" in text.output
    assert " 51. " in text.output and "->" in text.output
    record = json.loads(run("solve", "accordion", "--seed", "7", "--json").output)
    assert record["result"] == "won" and record["min_piles"] == 1 and record["seed"] == 7
    assert len(record["solution"]) == 51 and record["nodes"] > 0 and record["seconds"] >= 0
    for field in ("game", "variant", "deal"):
        assert field in record


def test_show_draws_the_layout_after_each_move_with_its_position():
    """Each move is followed by its layout, indented as one block with the pile it changed
    marked, and by the position, which reads back and solves from there."""
    text = run("solve", "accordion", "--seed", "7", "--show").output
    positions = [line.split("position: ", 1)[1] for line in text.splitlines() if line.startswith("       position: ")]
    assert len(positions) == 52 and positions[-1].startswith("row: ") and len(positions[-1].split()) == 2
    block = text.split("  1. ", 1)[1].split("\n  2. ", 1)[0].splitlines()[1:]
    assert all(line.startswith("       ") for line in block) and sum("*" in line for line in block) == 1
    record = json.loads(run("solve", "accordion", "--position", positions[10], "--json").output)
    assert record["result"] == "won" and record["position"] == positions[10] and record["deal"] is None


def test_a_file_of_positions_is_answered_line_by_line(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text("# two games in progress\nrow: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S\nrow: AS AS\nrow: 2C 3H\n")
    result = run("solve", "accordion", "--file", str(path), "--json")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    # The bad line is a record of its own, in its place, so that a pipeline reading them sees it.
    assert result.exit_code == 3 and [r.get("result", "error") for r in records] == ["won", "error", "lost"]
    assert [r["line"] for r in records] == [2, 3, 4] and "more than once" in records[1]["error"]
    assert set(records[1]) == {"line", "error"} and records[1]["error"] in result.stderr
    assert "line 3" in result.stderr and "more than once" in result.stderr


def test_limits_give_unknown(tmp_path):
    record = json.loads(run("solve", "accordion", "--seed", "1", "--json", "--max-nodes", "10").output)
    assert record["result"] == "unknown" and record["limit"] == "max_nodes" and not record["score_proven"]


def test_fewest_redeals_says_whether_the_count_is_proven():
    """The depth-first search decides the deal; IDA* then proves the fewest redeals, or a limit
    leaves the win standing with its count marked not proven."""
    proven = run("solve", "amazons-pysol", "--seed", "1", "--fewest-redeals")
    assert proven.exit_code == 0 and "result: won\n" in proven.output and "redeals: 2 (fewest)" in proven.output
    record = json.loads(
        run("solve", "amazons", "--seed", "1", "--fewest-redeals", "--max-nodes", "20000", "--json").output
    )
    assert record["result"] == "won" and record["score_proven"] and record["limit"] == "max_nodes"
    assert record["fewest_redeals_proven"] is False and record["redeals"] == record["solution"].count("redeal")
    assert 1 <= record["redeals_at_least"] < record["redeals"]
    assert "redeals" not in json.loads(run("solve", "amazons", "--seed", "1", "--json").output)


def test_verify_holds_a_record_to_its_redeals(tmp_path):
    record = json.loads(run("solve", "amazons-pysol", "--seed", "1", "--fewest-redeals", "--json").output)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert run("verify", "amazons-pysol", "--seed", "1", "--solution", str(path)).exit_code == 0
    path.write_text(json.dumps({**record, "redeals": record["redeals"] - 1}))
    result = run("verify", "amazons-pysol", "--seed", "1", "--solution", str(path))
    assert result.exit_code == 1 and f"but its moves hold {record['redeals']}" in result.output


def test_file_of_deals_gives_one_json_line_each(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text(f"# two deals\n{SEED_1}\n{' '.join(reversed(SEED_1.split()))}\n")
    lines = run("solve", "accordion", "--file", str(deals), "--json").output.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["seed"] is None for line in lines)


def test_verify_accepts_a_solution_and_names_the_first_illegal_move(tmp_path):
    solved = run("solve", "accordion", "--seed", "7").output
    moves = [line for line in solved.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    good = tmp_path / "good.txt"
    good.write_text("\n".join(moves) + "\n")
    result = run("verify", "accordion", "--seed", "7", "--solution", str(good))
    assert result.exit_code == 0 and "the game is won" in result.output
    record = tmp_path / "record.json"
    record.write_text(run("solve", "accordion", "--seed", "7", "--json").output)
    assert run("verify", "accordion", "--seed", "7", "--solution", str(record)).exit_code == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(moves[:3] + ["3D -> JD (leap)"] + moves[3:]) + "\n")
    result = run("verify", "accordion", "--seed", "7", "--solution", str(bad))
    assert result.exit_code == 1 and "move 4 (3D -> JD (leap)) is illegal" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve", "klondike", "--seed", "1"), "unknown game 'klondike'"),
        (("solve", "accordion", "--deal", "AS 2S XX"), "unknown card(s): XX"),
        (("solve", "accordion", "--deal", SEED_1.replace("6H", "JD")), "duplicated JD"),
        (("solve", "accordion", "--deal", SEED_1.rsplit(" ", 1)[0]), "missing 6H"),
        (("solve", "accordion", "--seed", "1", "--variant", "fast"), "unknown variant 'fast'"),
        (("solve", "accordion", "--seed", "1", "--option", "speed=2"), "unknown option 'speed'"),
        (("solve", "accordion", "--seed", "1", "--option", "order=random"), "option order does not take"),
        (("solve", "accordion", "--seed", "0"), "out of range"),
        (("solve", "accordion"), "give exactly one of --seed, --seeds, --deal, --file or --position"),
        (("solve", "accordion", "--seed", "1", "--max-memory", "lots"), "cannot read memory size"),
        (("solve", "accordion", "--file", "/nonexistent/deals.txt"), "No such file"),
        (("solve", "accordion", "--seed", "1", "--fewest-redeals"), "accordion has none"),
        (("solve", "accordion", "--seed", "1", "--max-nodes", "0"), "--max-nodes must be positive"),
        (("solve", "accordion", "--seed", "1", "--max-seconds", "-1"), "--max-seconds must be positive"),
        (("solve", "accordion", "--seed", "1", "--max-memory", "1K"), "too small"),
        (("solve", "accordion", "--seed", "1", "--json", "--show"), "--json prints records: give one"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_malformed_solution_file_is_an_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = run("verify", "accordion", "--seed", "7", "--solution", str(broken))
    assert result.exit_code == 2 and f"cannot read {broken} as a JSON record" in result.output
    gibberish = tmp_path / "gibberish.txt"
    gibberish.write_text("4S => 8S\n")
    result = run("verify", "accordion", "--seed", "7", "--solution", str(gibberish))
    assert result.exit_code == 2 and f"{gibberish} line 1: cannot read move" in result.output


def test_a_limited_search_reports_the_best_it_found():
    record = json.loads(run("solve", "accordion", "--seed", "1", "--json", "--max-nodes", "500").output)
    assert record["result"] == "unknown" and record["nodes"] == 500
    assert record["min_piles"] < 10 and len(record["best_line"]) == 52 - record["min_piles"]


def test_verify_holds_a_json_record_to_its_claims(tmp_path):
    record = json.loads(run("solve", "accordion", "--seed", "7", "--json").output)
    cut = dict(record, solution=record["solution"][:10])
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(cut))
    result = run("verify", "accordion", "--seed", "7", "--solution", str(path))
    assert result.exit_code == 1 and "claims a win" in result.output
    path.write_text(json.dumps(dict(record, game="baroness")))
    result = run("verify", "accordion", "--seed", "7", "--solution", str(path))
    assert result.exit_code == 2 and "the record's game is 'baroness'" in result.output
    result = run("verify", "accordion", "--seed", "8", "--solution", str(path.with_name("x")))
    assert result.exit_code == 2
    path.write_text(json.dumps(record))
    result = run("verify", "accordion", "--seed", "8", "--solution", str(path))
    assert result.exit_code == 2 and "the record's deal" in result.output


def test_non_text_files_are_named_in_the_error(tmp_path):
    binary = tmp_path / "moves.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    result = run("verify", "accordion", "--seed", "7", "--solution", str(binary))
    assert result.exit_code == 2 and "not a text file" in result.output and "moves.bin" in result.output
    result = run("solve", "accordion", "--file", str(binary))
    assert result.exit_code == 2 and "deal file" in result.output and "not a text file" in result.output


def test_ctrl_c_is_one_line_and_exit_code_130(tmp_path):
    import signal
    import subprocess
    import sys

    from rulesets.cards import format_cards
    from rulesets.deals import seeded_deal

    deals = tmp_path / "many.txt"
    deals.write_text("\n".join(format_cards(seeded_deal(seed)) for seed in range(1, 2001)))
    command = [
        sys.executable,
        "-c",
        "from solver.cli.entry import main; main()",
        "solve",
        "accordion",
        "--file",
        str(deals),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    first = "".join(iter(process.stdout.readline, "solution (51 moves):\n"))  # deal 1 answered: at work
    process.send_signal(signal.SIGINT)
    output, errors = process.communicate(timeout=60)
    assert process.returncode == 130 and "result: won" in first and output.count("result:") < 2000
    assert errors.strip() == "patience: interrupted (what was printed stands)"


def test_every_argument_fills_a_keyword_parameter_of_its_command():
    """The parser hands a command what it parsed by name: each declared argument is one of its
    function's keyword-only parameters, and each parameter is declared."""
    import inspect

    from solver.cli.application import COMMANDS

    assert [command.name for command in COMMANDS] == [
        *("games", "describe", "deal", "solve", "verify", "hint", "play", "survey", "report")
    ]
    for command in COMMANDS:
        parameters = inspect.signature(command.function).parameters
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters.values()), command.name
        assert sorted(parameters) == sorted(argument.dest for argument in command.arguments), command.name


def test_verify_takes_a_deal_files_record_with_its_line(tmp_path):
    deals, record = tmp_path / "deals.txt", tmp_path / "record.json"
    deals.write_text(f"# one deal\n{SEED_1}\n")
    record.write_text(run("solve", "accordion", "--file", str(deals), "--json").output)
    assert json.loads(record.read_text())["line"] == 2
    checked = run("verify", "accordion", "--deal", SEED_1, "--solution", str(record))
    assert checked.exit_code == 0, checked.output


def test_one_move_is_counted_in_the_singular_and_its_printout_verifies(tmp_path):
    ran = run("solve", "accordion", "--position", "row: AS 2S")
    assert "solution (1 move):" in ran.stdout.splitlines(), ran.stdout
    printout = tmp_path / "one.txt"
    printout.write_text(ran.stdout)
    checked = run("verify", "accordion", "--position", "row: AS 2S", "--solution", str(printout))
    assert (checked.exit_code, checked.stdout) == (0, "valid: its 1 move legal; the game is won\n")


def test_a_file_mixing_deals_and_positions_names_the_line_of_the_other_kind(tmp_path):
    """The first line decides what the file holds; a line of the other kind is named as such
    (it read as 'unknown card(s): row: | stock:' or as a position section of cards)."""
    deal = run("deal", "accordion", "--seed", "1").stdout
    deals_first, positions_first = tmp_path / "dp.txt", tmp_path / "pd.txt"
    deals_first.write_text(deal + "row:AS 2S | stock: 3S\n")
    positions_first.write_text("row: AS 2S | stock: 3S\n" + deal)
    ran = run("solve", "accordion", "--file", str(deals_first))
    assert ran.exit_code == 3 and "line 2: it holds a position, but the file's first line is a deal" in ran.stderr
    ran = run("solve", "accordion", "--file", str(positions_first))
    assert ran.exit_code == 3 and "line 2: it holds a deal, but the file's first line is a position" in ran.stderr
    survey = run("survey", "accordion", "--file", str(deals_first), "--out", str(tmp_path / "s.sqlite"))
    assert survey.exit_code == 2 and "line 2: it holds a position" in survey.stderr
