"""Players: anything that picks one of the legal moves from what its seat sees.

A player never gets the state: only the ``Observation`` of its seat (when it
asks for one with ``needs_observation``), the list of legal moves and the
``Decision`` (``cardcore.decision``): imagined deals, why a move is illegal,
the match's status, a way back.
"""

from __future__ import annotations

import inspect
import random
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import click

from cardcore.cards import Card, CardError, parse_card
from cardcore.decision import Checkpoint, Decision, Rewind
from cardcore.game import Observation
from cardcore.moves import Move, laid_cards, names_by_rank
from cardcore.render import (
    card_text,
    named_sides,
    numbered,
    plain,
    show_observation,
    show_text,
    use_color,
    wrapped,
)

if TYPE_CHECKING:
    from cardcore.table import Table


class Player(Protocol):
    """Anything that chooses a move from what its seat sees.

    ``choose(observation, moves, decision)`` gets the seat's ``Observation``
    (when ``needs_observation``, else None), a copy of the legal moves and the
    ``Decision``: everything else a player may ask of the deal
    (``decision.sample(rng)`` for a search, ``decision.explain(move)``,
    ``decision.status()``, ``decision.can_undo``), valid during the call. It
    returns one of the moves, or raises ``Rewind`` to go back (undo). A player
    that also defines ``witness(event)`` follows the game: the engine calls it
    with ``{"event": "deal_start", "dealer"}`` and, after every move of any
    seat, ``{"event": "move", "seat", "move"}`` (the move's public JSON: what
    every seat saw played; a drawn card is not in it).

    A player is made by a factory ``(table, seat, rng, **options)``; one whose
    ``choose`` takes two arguments (the protocol before ``Decision``) still
    plays, with a deprecation warning (``legacy``)."""

    needs_observation: bool

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move: ...


PlayerFactory = Callable[["Table", int, random.Random], Player]


class _TwoArguments:
    """A player of the protocol before ``Decision`` (``choose(observation, moves)``)."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.needs_observation = player.needs_observation
        if hasattr(player, "rng"):
            self.rng = player.rng
        if hasattr(player, "witness"):
            self.witness = player.witness

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        move: Move = self.player.choose(observation, moves)
        return move


_TAKES_DECISION: dict[type, bool] = {}  # per class: whether ``choose`` takes the decision


def legacy(player: Any) -> Any:
    """``player`` itself, or wrapped if its ``choose`` takes only
    ``(observation, moves)``: it keeps working, with a one-line deprecation.
    (Asked of each player at each deal: the answer is kept per class.)"""
    kind = type(player)
    takes = _TAKES_DECISION.get(kind)
    if takes is None:
        try:
            params = inspect.signature(player.choose).parameters.values()
            takes = any(p.kind is p.VAR_POSITIONAL for p in params) or len(params) >= 3
        except (AttributeError, TypeError, ValueError):  # no choose to inspect: the engine will say
            takes = True
        _TAKES_DECISION[kind] = takes
    if takes:
        return player
    warnings.warn(
        f"{type(player).__name__}.choose(observation, moves): take a third argument, the Decision "
        "(cardcore.decision); the two-argument form is deprecated",
        DeprecationWarning,
        stacklevel=3,
    )
    return _TwoArguments(player)


class RandomPlayer:
    """Picks uniformly among the legal moves with its own seeded RNG."""

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        return moves[self.rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class QuitGame(Exception):
    """The human asked to stop."""


class UndoRequest(Exception):
    """The human asked to go back to his previous decision (against bots only)."""


class Undoable:
    """A person's seat against bots, with undo: keeps a way back to each of
    his decisions in the deal (``Decision.checkpoint``) and turns his
    ``UndoRequest`` into a ``Rewind`` to the one before. The engine's loop
    knows nothing of undo; ``cardcore play`` wraps the seat when one person
    plays."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.needs_observation = player.needs_observation
        self.points: list[Checkpoint] = []
        if hasattr(player, "rng"):
            self.rng = player.rng

    def __getattr__(self, name: str) -> Any:  # the person's own settings (confirm_forced …)
        return getattr(self.__dict__["player"], name)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        assert decision is not None, "the engine hands every decision its context"
        if self.points and self.points[-1].deal != decision.deal:
            self.points = []  # a new deal: no way back into the last one
        self.points.append(decision.checkpoint())
        decision.can_undo = len(self.points) > 1
        try:
            move: Move = self.player.choose(observation, moves, decision)
        except UndoRequest:
            self.points.pop()  # this decision
            raise Rewind(self.points.pop()) from None  # back to his previous one
        return move


def _prompt(prompt: str) -> str:
    """A person's answer at the terminal (waiting for him is no overrun: ``watchdog.person_waits``)."""
    from cardcore.watchdog import person_waits

    with person_waits():
        answer: str = click.prompt(prompt, prompt_suffix=" > ", default="", show_default=False)
    return answer


class HumanPlayer:
    """A person at the terminal: shows the seat's view and a numbered list of moves.

    Accepts a move's number, its text, or the card to play when only one move
    plays it.  Bad input gets a one-line message and the prompt again.
    """

    needs_observation = True

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.specials = {c.name for c in table.deck if c.special}
        self.adviser: Player | None = None
        self.on_save: Callable[[], str] | None = None  # `s`: set by `cardcore play`
        # a forced move is said here, unless the printer says it (`cardcore play`)
        self.announce_forced = True
        self.decision: Decision | None = None  # the decision being made (during ``choose``)
        self.shown = 0  # entries of the menu on screen
        self.last_hand: list[str] = []
        self.last_deal: int | None = None
        self.before_view: Callable[[], None] | None = None  # `cardcore play`: the printer's flush
        self.hand_line = ""
        self.pending: list[str] = []  # cards typed beyond a meld, to add next
        self.by_rank = not getattr(table.plugin, "suits_matter", True)  # Canasta: 9S names any 9
        self.input: Callable[[str], str] = _prompt
        self.echo: Callable[[str], None] = click.echo

    MAX_ENTRIES = 12  # a menu longer than this is grouped (the view fits 80×24)

    def said(self, m: Move) -> str:
        """A move as the menu shows it: cards with symbols, sides by their players' names."""
        return named_sides(show_text(self.table.move_text(m)), self.table.names, self.table.sides)

    def menu(self, moves: Sequence[Move]) -> list[tuple[str, list[Move]]]:
        """The entries to show: each move, or, when there are more than
        ``MAX_ENTRIES``, groups of moves: by the card played, else by kind of
        move and rank (suits apart), else by kind; a group is opened by its
        number (``0`` goes back)."""
        if len(moves) <= self.MAX_ENTRIES:
            return [(self.said(m), [m]) for m in moves]

        def by(key: Callable[[Move], Any], label: Callable[[Move], str]) -> list[tuple[str, list[Move]]]:
            groups: dict[Any, tuple[str, list[Move]]] = {}
            for m in moves:
                groups.setdefault(key(m), (label(m), []))[1].append(m)
            return [(text if len(ms) > 1 else self.said(ms[0]), ms) for text, ms in groups.values()]

        def card(m: Move) -> str:
            return card_text(m.card) if m.card is not None else "with"

        for grouped in (
            by(lambda m: (m.kind, m.card.name if m.card else None), lambda m: f"{m.kind} {card(m)} …"),
            by(lambda m: (m.kind, m.card.rank if m.card else None), lambda m: f"{m.kind} a {_rank(m)} …"),
            by(lambda m: m.kind, lambda m: f"{m.kind} …"),
            # one card's many captures: the largest first
            sorted(
                by(lambda m: len(m.takes), lambda m: f"taking {len(m.takes)} cards …"),
                key=lambda entry: -len(entry[1][0].takes),
            ),
        ):
            if 1 < len(grouped) <= self.MAX_ENTRIES:
                return [(f"{text} ({len(ms)} moves)" if len(ms) > 1 else text, ms) for text, ms in grouped]
        # still too many alike: pages
        pages = [list(moves[i : i + self.MAX_ENTRIES]) for i in range(0, len(moves), self.MAX_ENTRIES)]
        first = [i * self.MAX_ENTRIES + 1 for i in range(len(pages))]
        return [(f"moves {a}–{a + len(p) - 1} …", p) for a, p in zip(first, pages, strict=True)]

    def show_menu(self, menu: list[tuple[str, list[Move]]], back: bool = False) -> None:
        """The entries, then the score and the hand: the last lines before the
        prompt, so that they stay on an 80×24 screen however long the view."""
        self.shown = len(menu)  # the numbers he can type now
        for line in numbered(text for text, _ in menu):
            self.echo(line)
        if back:
            self.echo("    0. back to every move")
        status = plain(self.decision.status()) if self.decision is not None else ""
        for line in wrapped(status) if status else []:
            self.echo(click.style(line, bold=True) if use_color() else line)
        self.echo(self.hand_line)

    def explain(self, move: Move) -> str | None:
        """The game's reason why ``move`` is not legal now (None: no reason given)."""
        return self.decision.explain(move) if self.decision is not None else None

    def hint(self, observation: Observation, moves: Sequence[Move]) -> str:
        """What the strongest bot would play here, seeing what he sees (``advise``)."""
        if self.adviser is None and "greedy" in self.table.player_kinds:
            self.adviser = self.table.player_kinds["greedy"](self.table, self.seat, random.Random(0))
        return show_text(advise(self.table, self.seat, observation, moves, self.decision, self.adviser)[1])

    def parse(self, text: str, moves: Sequence[Move]) -> Move | str:
        """The move ``text`` names, or an error text."""
        text = text.strip()
        texts = [self.table.move_text(m) for m in moves]
        if text.isascii() and text.isdigit():  # not "²" or "①", which int() refuses
            n = int(text) if len(text) < 6 else 0
            if 1 <= n <= len(moves):
                return moves[n - 1]
            return f"there is no move {n}: choose 1 to {len(moves)}"
        for m, t in zip(moves, texts, strict=True):
            if text.lower() in (t.lower(), show_text(t).lower(), self.said(m).lower()):
                return m
        words = text.split()
        if len(words) > 1:  # a kind of move and its cards, by rank, in any order and case
            typed = self.by_cards(words[0].lower(), words[1:], moves)
            if typed is not None:
                return typed if isinstance(typed, str) else self.as_named(typed, words[1:], moves)
        try:
            c = parse_card(text, self.specials)
        except CardError:
            entries = self.shown or len(moves)
            return f"{text[:40]!r} is not a move: type its number (1 to {entries}) or its text"
        # by name: with two decks, the move may play the other copy of the card
        with_card = [m for m in moves if m.card is not None and m.card.name == c.name]
        if not with_card and self.by_rank and not c.special:  # the move listed for its rank (N8a)
            with_card = [m for m in moves if m.card is not None and m.card.rank == c.rank]
        if len(with_card) == 1:
            return self.as_named(with_card[0], [text], moves)
        if with_card:
            return f"{c.name} can be played {len(with_card)} ways: type the move's number"
        return f"no legal move plays {c.name} now: {self.why_not(c, moves)}"

    def by_cards(self, kind: str, tokens: list[str], moves: Sequence[Move]) -> Move | str | None:
        """The move of ``kind`` whose cards the tokens name: a card (``9s``) or a
        rank (``9``, ``k``, ``joker``) each. More tokens than a meld takes are
        added to it, one by one, at the next decisions (``meld 9 9 9 2``)."""
        if not any(m.kind == kind for m in moves):
            return None
        for m in moves:
            if m.kind != kind:
                continue
            cards = list(m.get("cards") or ()) or ([m.card] if m.card is not None else [])
            if cards and len(cards) <= len(tokens) and _covers(tokens[: len(cards)], cards, self.by_rank):
                self.pending = tokens[len(cards) :]
                return m
        return f"no legal {kind} with {' '.join(tokens)}: choose one of the numbered moves"

    def in_hand_order(self, moves: Sequence[Move], observation: Observation) -> list[Move]:
        """The moves as his hand is shown: first those that lay no card of it
        (draw, take the pile …), then by the place of the first card they lay
        (the game's order kept among the moves of one card)."""
        order = getattr(self.table.plugin, "hand_order", None)
        hand = sorted(observation.hand, key=order) if order is not None else list(observation.hand)
        place: dict[str, int] = {}
        for i, c in enumerate(hand):
            place.setdefault(c.name, i)

        def key(m: Move) -> int:
            laid = [place[c.name] for c in laid_cards(m) if c.name in place]
            return min(laid) + 1 if laid else 0

        return sorted(moves, key=key)

    def as_named(self, move: Move, tokens: list[str], moves: Sequence[Move]) -> Move:
        """``move`` laid with the cards the tokens name where suits do not
        matter (``discard 6S`` for the listed ``discard 6C``: N8a), when he
        holds them; else ``move`` as listed (the engine's choice)."""
        if not self.by_rank or self.decision is None:
            return move
        named = [c for c in map(self._card_or_none, tokens) if c is not None and not c.special]
        if not named:
            return move
        laid = self.decision.laid_with(move, names_by_rank(move, named), moves)
        return laid if laid is not None else move

    def why(self, text: str, moves: Sequence[Move]) -> str:
        """``why MOVE``: whether the move typed is legal, else the rule against it."""
        pending = self.pending
        got = self.parse(text, moves)
        self.pending = pending  # asking is not playing
        if not isinstance(got, str):
            return f"{show_text(self.table.move_text(got))} is legal now"
        words = text.split()
        cards = [c for c in map(self._card_or_none, words) if c is not None]
        if cards:
            # the kind the words name (``3h trails``, ``trail 3h``, ``meld 8c 8d joker``), else the card's
            named = [k for w in words for k in self._kinds(moves) if w.lower() in (k, k + "s", k + "es")]
            kinds = named or ([words[0].lower()] if len(words) > 1 else [])
            if not kinds:
                return f"not legal: {self.why_not(cards[0], moves)}"
            for kind in dict.fromkeys(kinds):
                reason = self.explain(Move(kind, cards[0]))
                if reason:
                    return f"not legal: {reason}"
        return f"not legal: {got}"

    def _card_or_none(self, word: str) -> Any:
        try:
            return parse_card(word, self.specials)
        except CardError:
            return None

    def _kinds(self, moves: Sequence[Move]) -> list[str]:
        """The move kinds a person may name: the game's (``GamePlugin.card_kind``
        first) and those of the legal moves."""
        first = getattr(self.table.plugin, "card_kind", None)
        return list(dict.fromkeys([*([first] if first else []), *(m.kind for m in moves)]))

    def why_not(self, c: Any, moves: Sequence[Move]) -> str:
        """The rule that keeps ``c`` from being played (``reason_not``)."""
        return reason_not(self.table, self.explain, c, moves) or "choose one of the numbered moves"

    confirm_forced = False  # True: a single legal move waits for a keystroke too

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        self.decision = decision
        try:
            return self._choose(observation, moves)
        finally:
            self.decision = None  # valid during the call only

    def _choose(self, observation: Observation | None, moves: Sequence[Move]) -> Move:
        added = self._pending_add(moves)
        if added is not None:
            return added
        assert observation is not None
        if len(moves) == 1 and not self.confirm_forced:
            if self.announce_forced:
                only = self.table.move_text(moves[0])
                self.echo(f"  {self.table.names[self.seat]}: {only} (the only legal move)")
            return moves[0]
        self._show_view(observation)
        moves = self.in_hand_order(moves, observation)
        menu = self.menu(moves)
        self.show_menu(menu)
        while True:
            answer = self.input(f"{self.table.names[self.seat]}, your move (number, ?, h, u, s, why … or q)")
            text = answer.strip()
            if self._command(text, observation, moves):
                continue
            if text in {"?", "help", "", "0", "b", "back"}:
                if text in {"0", "b", "back"}:
                    menu = self.menu(moves)
                self.show_menu(menu)
                continue
            if text.isascii() and text.isdigit() and len(text) < 6:
                chosen = self._numbered(int(text), menu)
                if isinstance(chosen, list):
                    menu = chosen
                    continue
                return chosen
            got = self.parse(answer, moves)
            if isinstance(got, str):
                self.echo(f"  ! {got}")
                continue
            return got

    def _pending_add(self, moves: Sequence[Move]) -> Move | None:
        """The next card of a typed "meld 9 9 9 2" beyond the meld: added one by one."""
        while self.pending:
            token = self.pending.pop(0)
            for m in moves:
                if m.kind == "add" and m.card is not None and _covers([token], [m.card], self.by_rank):
                    return self.as_named(m, [token], moves)
            self.echo(f"  ! {token} cannot be added now")
            self.pending = []
        return None

    def _show_view(self, observation: Observation) -> None:
        """What is new in his hand, then his view (the hand's line kept for last)."""
        if self.before_view is not None:
            self.before_view()  # the others' moves since his last decision, on screen first
        new = list(observation.hand)
        for c in self.last_hand:
            for i, card in enumerate(new):
                if card.name == c:
                    del new[i]
                    break
        deal = self.decision.deal if self.decision is not None else None
        if new and self.last_hand and deal == self.last_deal:  # (a new deal's hand is all new)
            self.echo(f"  new in your hand: {' '.join(card_text(c) for c in new)}")
        self.last_hand = [c.name for c in observation.hand]
        self.last_deal = deal
        order = getattr(self.table.plugin, "hand_order", None)
        item = getattr(self.table.plugin, "show_item", None)
        view = show_observation(observation, self.table.names, hand_order=order, item=item)
        at = next(i for i, line in enumerate(view) if line.startswith("  your hand"))
        self.hand_line = "\n".join(view[at:])  # shown last, with the score: always on screen
        for line in view[:at]:
            self.echo(line)

    def _command(self, text: str, observation: Observation, moves: Sequence[Move]) -> bool:
        """``q``, ``s``, ``why MOVE``, ``h``, ``u``: answered (True), or not a command."""
        said = text.lower()
        if said in {"q", "quit", "exit"}:
            if self.on_save is not None:  # `cardcore play`: the game can be kept
                try:
                    answer = self.input("  Save the game, to go on with it later? (y/n)").strip().lower()
                except (click.Abort, EOFError):  # no more input: he stops, as with `n`
                    raise QuitGame from None
                if answer in {"y", "yes"}:
                    self.echo(f"  {self.on_save()}")
                elif answer not in {"n", "no"}:
                    self.echo("  ! type y to save and stop, n to stop without saving; the game goes on")
                    return True
            raise QuitGame
        if said in {"s", "save"}:
            self.echo(f"  {self.on_save()}" if self.on_save else "  ! nothing to save to here")
        elif said.startswith("why "):
            self.echo(f"  {self.why(text[4:], moves)}")
        elif said in {"h", "hint"}:
            self.echo(f"  hint: {self.hint(observation, moves)}")
        elif said in {"u", "undo"}:
            if self.decision is not None and self.decision.can_undo:
                raise UndoRequest
            self.echo("  ! nothing to undo in this deal (undo plays against bots only)")
        else:
            return False
        return True

    def _numbered(self, n: int, menu: list[tuple[str, list[Move]]]) -> Move | list[tuple[str, list[Move]]]:
        """Entry ``n`` of the menu: its move, or the menu of its group (shown)."""
        if not 1 <= n <= len(menu):
            self.echo(f"  ! there is no move {n}: choose 1 to {len(menu)}")
            return menu
        _, group = menu[n - 1]
        if len(group) == 1:
            return group[0]
        inner = self.menu(group)  # the moves of that card or kind
        self.show_menu(inner, back=True)
        return inner


def _rank(m: Move) -> str:
    c = m.card
    if c is None:
        return "card"
    return c.name if c.special else c.name[:-1]


def _covers(tokens: list[str], cards: list[Any], by_rank: bool = False) -> bool:
    """Whether each token names a different one of ``cards`` (all of them):
    a full card (``9s``, ``9♠``) names that card (any card of its rank where
    suits do not matter, ``by_rank``), a rank (``9``, ``K``, ``joker``) any
    card of that rank."""
    if len(tokens) != len(cards):
        return False
    left = list(cards)
    for token in sorted(tokens, key=lambda t: -len(t)):  # full cards before bare ranks
        for i, c in enumerate(left):
            if _names(token, c, by_rank):
                del left[i]
                break
        else:
            return False
    return True


def _names(token: str, c: Any, by_rank: bool = False) -> bool:
    try:
        named = parse_card(token, ())  # () : no new name is interned
        if by_rank and not named.special and not c.special:
            return bool(named.rank == c.rank)
        return bool(named.name == c.name)
    except CardError:
        pass
    t = token.upper()
    if t == "T":
        t = "10"
    rank = str(c.name if c.special else c.name[:-1])
    return t == rank.upper()


def reason_not(
    table: Table, explain: Callable[[Move], str | None], c: Card, moves: Sequence[Move]
) -> str | None:
    """The rule that keeps card ``c`` from being played now, as the game
    explains it (``explain``: ``Decision.explain``, the hook
    ``cardcore_explain_illegal``): first for the move a card alone
    means (``GamePlugin.card_kind``: a trail, a discard), then for each kind of
    the legal moves that lay a card. None: the game gives no reason. Called by
    the terminal (``why``, a card typed that plays no move) and the browser's
    *why not?*."""
    first = getattr(table.plugin, "card_kind", None)
    kinds = dict.fromkeys([*([first] if first else []), *(m.kind for m in moves if m.card is not None)])
    for kind in kinds:
        reason = explain(Move(kind, c))
        if reason:
            return str(reason)
    return None


def advise(
    table: Table,
    seat: int,
    observation: Observation,
    moves: Sequence[Move],
    decision: Decision | None,
    fallback: Player | None = None,
) -> tuple[Move | None, str, list[tuple[Move, int, float]]]:
    """A hint: the move the ``hard`` level (``cardcore.levels``: the search
    within about 300 ms of CPU) would play seeing only what ``seat`` sees, and
    why in a line. The search (``ismcts``, over deals imagined by
    ``decision.sample``) gives the points it expects for the moves it tried most;
    without it, ``fallback`` (the game's greedy bot) names its move. Also the
    search's estimates: (move, deals tried, mean points) of its top moves."""
    if "hard" in table.player_kinds and decision is not None:
        search: Any = table.player_kinds["hard"](table, seat, random.Random(0))
        move = search.choose(observation if search.needs_observation else None, moves, decision)
        rows = search.estimates()[:3] if hasattr(search, "estimates") else []
        return move, _why_this(table, move, rows), rows
    if fallback is None:
        return None, "this game has no bot to ask", []
    move = fallback.choose(observation if fallback.needs_observation else None, moves)
    return move, f"I would play {table.move_text(move)}", []


def _why_this(table: Table, move: Move, rows: list[tuple[Move, int, float]]) -> str:
    """The hint in words, from what the search found: its move, and how it did
    against the next best over the deals it imagined from what you see."""
    text = f"I would play {table.move_text(move)}"
    others = [(m, p) for m, _, p in rows if m != move]
    mine = next((p for m, _, p in rows if m == move), None)
    if mine is None or not others:
        return text
    other, points = others[0]
    gap = mine - points
    if abs(gap) < 0.05:
        return f"{text}: about as good as {table.move_text(other)} in the deals I imagined"
    if gap > 0:
        return f"{text}: {gap:.1f} points more than {table.move_text(other)}, in the deals I imagined"
    return (
        f"{text}: the move I tried most; {table.move_text(other)} did {-gap:.1f} points better in fewer tries"
    )
