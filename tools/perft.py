"""The legal-move regression corpus, in the spirit of chess "perft" files.

    python tools/perft.py generate        # rewrite tests/perft/<game>.yaml
    python tools/perft.py check           # compare the engine with the corpus

Each game's file lists positions with the exact legal moves expected (count
and texts, in order) and the rulings each position exercises (``covers``).
The positions are every hand-made position of ``tests/positions/<game>/`` and
positions sampled from seeded random and greedy playouts of every player
count, option and house rule, chosen so that every feature the tagger below
recognises (a build to capture, a frozen pile, the stock's last card …) is
covered at least twice. ``tests/test_perft.py`` runs the check: a change in
move generation then shows up as a diff to review against RULINGS.md; after
an intended rules change, regenerate and review the diff.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).parent))

from soak import BOTS, configs

from cardcore.files import read_data
from cardcore.plugins import Registry, discover
from cardcore.position import position_from_data
from cardcore.runner import make_players
from cardcore.table import Table

ROOT = Path(__file__).parent.parent
CORPUS = ROOT / "tests" / "perft"
GAMES = ("paquet_voleur", "carrousel", "canasta")
PER_GAME = 120  # sampled positions per game (the hand-made ones come on top)
DEALS = 4  # deals played per configuration and bot mix to sample from


# ---- what a position exercises -------------------------------------------------
def tags(table: Table, state: Any, moves: list[Any]) -> set[str]:
    """The rulings and features a position exercises, from its moves and state."""
    game = table.game.name
    out = {f"{table.players}p", *(f"move:{m.kind}" for m in moves)}
    out |= {f"house:{h.name}" for h in table.house_rules}
    out |= {f"option:{k}={v}" for k, v in table.options.model_dump(exclude_defaults=True).items()}
    if game == "paquet_voleur":
        if any(m.kind == "steal" for m in moves):
            out.add("P5b steal")
        if all(m.kind == "trail" for m in moves):
            out.add("P5c trail only")
        if len(table.sides) < table.players:
            out.add("P1 partnership")
        if not state.stock:
            out.add("P7 last cards")
    elif game == "carrousel":
        from cardcore_plugins.carrousel.state import Build

        builds = [b for b in state.board if type(b) is Build]
        if builds:
            out.add("C8 build on the table")
        if any(b.owner == state.to_act for b in builds):
            out.add("C8b owner bound")
        if len({b.value for b in builds}) < len(builds):
            out.add("C8c two builds of one value")
        if any(m.kind == "capture" and m.card.rank > 10 for m in moves):
            out.add("C7 face capture")
        if any(m.kind == "capture" and len(m.takes) >= 3 for m in moves):
            out.add("C6 groups")
        if any(m.kind == "sweep" for m in moves):
            out.add("C9 broom")
        if any(m.kind == "trail" for m in moves) and any(m.kind != "trail" for m in moves):
            out.add("C10 free trail")
        if any(m.kind == "build" and m.get("value") > 10 for m in moves):
            out.add("C8 build above 10")
        if not state.stock:
            out.add("C11 last hands")
    elif game == "canasta":
        out.add(f"phase:{state.phase}")
        team = state.team_of(state.to_act)
        if state.discard and any(m.kind == "take_pile" for m in moves):
            out.add("N9 take")
        if not state.melds[team]:
            out.add("N10 not melded")
        if not state.stock:
            out.add("N13 stock out")
        if state.last_red_three:
            out.add("N13a last red three")
        if state.asked:
            out.add(f"N12 asked {state.asked}")
        if any(m.kind == "meld" and m.get("rank") == "3" for m in moves):
            out.add("N12c black threes")
        if state.pile_taker is not None:
            out.add("N17 partnership")
        if state.discard and state.phase == "draw":
            from cardcore_plugins.canasta.rules import frozen_for

            if frozen_for(state, team):
                out.add("N9a frozen")
        if any(m.kind == "discard" for m in moves) and len(state.hands[state.to_act]) == 1:
            out.add("N12 last card")
    return out


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


def sampled(registry: Registry, game: str, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(f"{seed}/{game}")
    candidates: list[tuple[set[str], Table, Any, str]] = []
    for ci, (players, options, house_rules) in enumerate(configs(game)):
        table = Table.from_names(registry, game, players, options, list(house_rules))
        for bots, deal in ((b, d) for b in BOTS for d in range(DEALS)):
            players_ = make_players(table, BOTS[bots][:players], rng.getrandbits(32))
            match = table.new_match(rng.getrandbits(63))
            state = match.start_deal()
            step = 0
            while not table.is_deal_over(state):
                moves = table.legal_moves(state)
                if rng.random() < 0.05:
                    ident = f"{game}/{ci}/{bots}/{deal}/{step}"
                    candidates.append((tags(table, state, moves), table, state.clone(), ident))
                p = players_[state.to_act]
                obs = table.observe(state, state.to_act) if p.needs_observation else None
                table.apply(state, p.choose(obs, moves), moves)
                step += 1
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


def generate(registry: Registry, seed: int) -> None:
    CORPUS.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
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
    args = ap.parse_args()
    registry = discover()
    if args.command == "generate":
        generate(registry, args.seed)
        return 0
    bad = 0
    for game in GAMES:
        for item in load(game):
            diff = differences(registry, item)
            if diff:
                print(diff)
                bad += 1
    print("corpus matches" if not bad else f"{bad} positions differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
