"""`companion simulate`, `companion replay` and `companion status` as a user runs them."""

import json

import pytest

from companion.cli import main
from companion.rules import GAME_MODULES, available_games
from companion.rules.core import Setup, dice
from companion.table import Table


@pytest.fixture(autouse=True)
def race_registered(monkeypatch):
    monkeypatch.setitem(GAME_MODULES, "race", "race_game")


GAMES = ["race", *available_games()]


def fixed(game):
    """Keep the test game short; real games are simulated with random options."""
    return ["--option", "target=40"] if game == "race" else []


@pytest.mark.parametrize("game", GAMES)
def test_simulate_prints_a_json_summary_and_the_same_seed_gives_the_same_games(game, capsys):
    assert main(["simulate", game, "--games", "20", "--seed", "4", "--json", *fixed(game)]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert first["game"] == game and first["games"] == 20
    assert first["games_per_second"] > 0 and first["seconds"] > 0
    assert "score" in first and first["stats"]["inputs"]["min"] > 0
    assert main(["simulate", game, "--games", "20", "--seed", "4", "--json", *fixed(game)]) == 0
    again = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert again["inputs"] == first["inputs"] and again["stats"] == first["stats"]


@pytest.mark.parametrize("game", GAMES)
def test_a_simulation_log_replays_exactly(game, tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    assert main(["simulate", game, "--games", "3", "--seed", "9", "--log", str(log), *fixed(game)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == 3 and all(r["ok"] for r in results)
    inputs = sum(1 for line in log.read_text().splitlines() if json.loads(line)["type"] == "input")
    assert sum(r["inputs"] for r in results) == inputs


def test_replay_finds_a_tampered_log(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    main(["simulate", "race", "--games", "2", "--seed", "1", "--log", str(log), *fixed("race")])
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    first_roll = next(r for r in lines if r["type"] == "input" and r["input"]["kind"] == "dice")
    first_roll["input"]["value"] = [1, 1] if first_roll["input"]["value"] != [1, 1] else [2, 2]
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    capsys.readouterr()
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr()
    assert "DIFFERS" in out.out and "differs from the logged one" in out.err


def test_replay_of_a_missing_file_says_so(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_status_shows_the_game_in_progress(tmp_path, capsys):
    assert main(["status", "--state", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"game": None, "inputs": 0, "score": None}
    t = Table(tmp_path / "journal.sqlite3")
    t.new_game("race", Setup(("Ann", "Bob")))
    t.submit(dice(2, 3))
    t.close()
    assert main(["status", "--state", str(tmp_path), "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["game"] == "race" and status["inputs"] == 1
    assert status["score"]["points"] == {"Ann": 0, "Bob": 0}
    assert status["prompt"]["text"] == "Keep them?"


def test_simulate_rejects_a_bad_option_clearly(capsys):
    assert main(["simulate", "race", "--games", "1", "--option", "target=5"]) == 2
    assert "whole number from 10 to 1000" in capsys.readouterr().err


def test_status_looks_where_the_daemon_keeps_its_journal(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[daemon]\nstate_dir = "{tmp_path / "kept"}"\n')
    t = Table(tmp_path / "kept" / "journal.sqlite3")
    t.new_game("race", Setup(("Ann", "Bob")))
    t.close()
    monkeypatch.setenv("COMPANION_CONFIG", str(cfg))
    assert main(["status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "race"
