"""The legal-move regression corpus, in the spirit of chess "perft" files.

    python tools/perft.py generate               # rewrite tests/perft/<game>.yaml, every game
    python tools/perft.py generate --game scopa  # one game's file (a new game's first corpus)
    python tools/perft.py check [--game NAME]    # compare the engine with the corpus

Each game's file lists positions with the exact legal moves expected (count
and texts, in order) and the rulings each position exercises (``covers``).
The positions are every hand-made position of ``tests/positions/<game>/`` and
positions sampled from seeded random and greedy playouts of the game's
configurations (``GameSpec.configurations()``: player counts, options, house
rules), chosen so that every feature tagged (``tags``: the core's tags and the
game's own, ``GameSpec.features``: a build to capture, a frozen pile, the
stock's last card …) is covered at least twice. ``tests/test_perft.py`` runs
the check for every installed game that has a corpus: a change in move
generation then shows up as a diff to review against the game's rulings (its
rules page in ``docs/``); after an intended rules change, regenerate and
review the diff.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).parent))

from soak import BOTS

from cardcore.files import read_data
from cardcore.plugins import Registry, discover
from cardcore.position_file import position_from_data
from cardcore.runner import make_players
from cardcore.table import Table

ROOT = Path(__file__).parent.parent
CORPUS = ROOT / "tests" / "perft"
PER_GAME = 120  # sampled positions per game (the hand-made ones come on top)
MAX_ROUNDS = 12  # rounds of deals played at most to find enough positions
MIN_CORPUS = 100  # positions a corpus holds at least (tests/test_perft.py)
DEALS = 4  # deals played per configuration and bot mix to sample from


# ---- what a position exercises -------------------------------------------------
def games(registry: Registry) -> list[str]:
    """The installed games that have a corpus file, by name."""
    return [g for g in sorted(registry.games) if (CORPUS / f"{g}.yaml").exists()]


def tags(table: Table, state: Any, moves: list[Any]) -> set[str]:
    """The rulings and features a position exercises, from its moves and state:
    the player count, move kinds, options and house rules, and the game's own
    (``GameSpec.features``)."""
    out = {f"{table.players}p", *(f"move:{m.kind}" for m in moves)}
    out |= {f"house:{h.name}" for h in table.house_rules}
    out |= {f"option:{k}={v}" for k, v in table.options.model_dump(exclude_defaults=True).items()}
    return out | table.game.features(table, state, moves)


# ---- generating ------------------------------------------------------------------
def entry(table: Table, state: Any, ident: str, covers: list[str]) -> dict[str, Any]:
    moves = table.legal_moves(state)
    position = {
        "game": table.game.name,
        "players": table.players,
        "options": table.options.model_dump(exclude_defaults=True),
        "house_rules": [h.name for h in table.house_rules],
        **table.dump_state(state),
    }
    return {
        "id": ident,
        "covers": covers,
        "position": position,
        "count": len(moves),
        "moves": [table.move_text(m, state) for m in moves],
    }


def hand_made(registry: Registry, game: str) -> list[dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "tests" / "positions" / game).glob("*.yaml")):
        table, state = position_from_data(read_data(path), registry, str(path))
        if table.is_deal_over(state):
            continue
        stem = path.stem.split("_", 1)[0]
        ruling = stem[0].upper() + stem[1:]  # c6b_… covers C6b
        out.append(entry(table, state, f"positions/{game}/{path.name}", [ruling]))
    return out


def _play_round(
    registry: Registry,
    game: str,
    configs: list[tuple[int, dict[str, Any], tuple[str, ...]]],
    rng: random.Random,
    candidates: list[tuple[set[str], Table, Any, str]],
    round_: int,
) -> None:
    """DEALS seeded deals of each configuration and bot mix; about one position
    in twenty goes to ``candidates``, tagged."""
    for ci, (players, options, house_rules) in enumerate(configs):
        table = Table.from_names(registry, game, players, options, list(house_rules))
        for bots, deal in ((b, d) for b in BOTS for d in range(DEALS)):
            players_ = make_players(table, BOTS[bots][:players], rng.getrandbits(32))
            match = table.new_match(rng.getrandbits(63))
            state = match.start_deal()
            step = 0
            while not table.is_deal_over(state):
                moves = table.legal_moves(state)
                if rng.random() < 0.05:
                    ident = f"{game}/{ci}/{bots}/{deal}/{step}" + (f"/r{round_}" if round_ else "")
                    candidates.append((tags(table, state, moves), table, state.clone(), ident))
                p = players_[state.to_act]
                obs = table.observe(state, state.to_act) if p.needs_observation else None
                table.apply(state, p.choose(obs, moves), moves)
                step += 1


def sampled(registry: Registry, game: str, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(f"{seed}/{game}")
    candidates: list[tuple[set[str], Table, Any, str]] = []
    configs = registry.game(game).configurations(list(registry.house_rules.values()))
    # a round of DEALS per configuration and bot mix; more rounds for a game
    # whose deals are short, until there are enough positions to choose from
    rounds = 0
    while rounds == 0 or (len(candidates) < 2 * PER_GAME and rounds < MAX_ROUNDS):
        _play_round(registry, game, configs, rng, candidates, rounds)
        rounds += 1
    # cover every tag twice, then fill up at random
    rng.shuffle(candidates)
    chosen: list[tuple[set[str], Table, Any, str]] = []
    seen: dict[str, int] = {}
    for c in candidates:
        if any(seen.get(t, 0) < 2 for t in c[0]):
            chosen.append(c)
            for t in c[0]:
                seen[t] = seen.get(t, 0) + 1
    rest = [c for c in candidates if c not in chosen]
    chosen += rest[: max(0, PER_GAME - len(chosen))]
    return [entry(table, state, ident, sorted(t)) for t, table, state, ident in chosen]


def generate(registry: Registry, seed: int, only: list[str]) -> None:
    CORPUS.mkdir(parents=True, exist_ok=True)
    for game in only:
        entries = hand_made(registry, game) + sampled(registry, game, seed)
        path = CORPUS / f"{game}.yaml"
        header = (
            f"# Legal-move regression corpus for {game}: generated by tools/perft.py,\n"
            "# checked by tests/test_perft.py. Each entry: a position, its exact legal\n"
            "# moves (count and texts, in order) and what it covers (rulings, features).\n"
        )
        body = yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=110)
        path.write_text(header + body, encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(entries)} positions")
        if len(entries) < MIN_CORPUS:
            print(
                f"  warning: fewer than {MIN_CORPUS} positions (tests/test_perft.py asks for them): "
                "add hand-made positions or GameSpec.test_configs",
                file=sys.stderr,
            )


# ---- checking ---------------------------------------------------------------------
def load(game: str) -> list[dict[str, Any]]:
    data = yaml.load((CORPUS / f"{game}.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return list(data)


def differences(registry: Registry, item: dict[str, Any]) -> str | None:
    """None if the engine lists exactly the corpus's moves, else what differs."""
    table, state = position_from_data(dict(item["position"]), registry, item["id"])
    got = [table.move_text(m, state) for m in table.legal_moves(state)]
    if got == item["moves"] and len(got) == item["count"]:
        return None
    missing = [m for m in item["moves"] if m not in got]
    extra = [m for m in got if m not in item["moves"]]
    return f"{item['id']}: expected {item['count']} moves, got {len(got)}; missing {missing}, extra {extra}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["generate", "check"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", help="only this game (repeatable); default: every game")
    args = ap.parse_args()
    registry = discover()
    for name in args.game or ():
        registry.game(name)  # an unknown name is an error naming the installed games
    if args.command == "generate":
        generate(registry, args.seed, args.game or sorted(registry.games))
        return 0
    bad = 0
    for game in args.game or games(registry):
        for item in load(game):
            diff = differences(registry, item)
            if diff:
                print(diff)
                bad += 1
    print("corpus matches" if not bad else f"{bad} positions differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
