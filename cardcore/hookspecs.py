"""The hooks: every decision a game makes, and how plugins are discovered.

Two plugin managers use these specs (see ``cardcore.plugins``):

* the **discovery** manager loads the entry-point groups ``cardcore.games`` and
  ``cardcore.house_rules`` and calls the ``register`` hooks below (the
  ``cardcore`` command builds one for the group ``cardcore.commands``, whose
  plugins add commands: ``cardcore_register_commands``);
* one **table** manager per table, built from the table's config: the core's
  defaults, then the game's plugin, then the house rules in the order listed.
  pluggy calls the last registered first, so a later house rule wraps the
  earlier ones and every house rule wraps the game.

Defaults are ``trylast``; a game's implementations are plain.  A house rule
that changes an answer uses ``@hookimpl(wrapper=True)``: ``result = yield``,
adjust, ``return result``; one that replaces it is a plain ``@hookimpl`` that
returns a value (house rules are registered after the game, so pluggy asks
them first).  Under ``firstresult`` ``None`` means "no opinion": the next
implementation is asked; every first-result hook below is typed ``… | None``
for that reason, and ``False`` is an answer, not an abstention.

The engine calls hooks only through ``cardcore.table.Table``, the typed facade
with one method per hook (a game's own hooks are called by that game). A game
must implement every hook of ``REQUIRED_HOOKS`` (and of ``STATE_HOOKS`` unless
its plugin names a ``state_class`` declaring its fields): ``Table`` refuses a
game that does not, naming the hook.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import click

    from cardcore.cards import Card
    from cardcore.game import DealState, GameSpec, HouseRuleSpec, Observation, SideScore
    from cardcore.match import Match
    from cardcore.moves import Move
    from cardcore.players import PlayerFactory
    from cardcore.rl.encoding import Encoding
    from cardcore.table import Table

PROJECT = "cardcore"
# the hooks without a core default: every game answers them (checked by Table)
REQUIRED_HOOKS = (
    "cardcore_build_deck",
    "cardcore_deal",
    "cardcore_legal_moves",
    "cardcore_apply_move",
    "cardcore_is_deal_over",
    "cardcore_score_deal",
    "cardcore_observe",
)
# the state's hooks: the core's defaults derive them from the FIELDS of the
# state class a game's plugin names (``state_class``, see ``cardcore.state``);
# a game that names none answers them itself (checked by Table)
STATE_HOOKS = (
    "cardcore_state_to_json",
    "cardcore_state_from_json",
    "cardcore_state_cards",
)
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class DiscoverySpec:
    """Hooks of the discovery manager (entry points)."""

    @hookspec
    def cardcore_register_games(self, register: Callable[[GameSpec], None]) -> None:
        """Register games: call ``register(spec)`` once per game.

        Called once by ``cardcore.plugins.discover()`` on every plugin of the
        ``cardcore.games`` entry-point group (and any other plugin).
        """

    @hookspec
    def cardcore_register_house_rules(self, register: Callable[[HouseRuleSpec], None]) -> None:
        """Register house rules: call ``register(spec)`` once per house rule.

        Called once by ``cardcore.plugins.discover()`` on every plugin of the
        ``cardcore.house_rules`` entry-point group.
        """

    @hookspec
    def cardcore_register_commands(self, cli: click.Group) -> None:
        """Add commands to the ``cardcore`` command: ``@cli.command()`` (or
        ``cli.add_command(command)``), as the built-in ones are added
        (``cardcore.commands``). A command made by ``@cli.command()`` has the
        built-in ones' class: its ``--help`` goes through the catalogs, a
        ``CardcoreError`` it raises under ``cardcore.commands.base.friendly``
        is one line and exit code 2.

        Called once per process by the ``cardcore`` group
        (``cardcore.commands.plugins``), on every plugin of the
        ``cardcore.commands`` entry-point group, the first time a command name
        is not a built-in one or the list of commands is shown (``cardcore
        --help``). A built-in command's name is refused (the built-in stays,
        with a warning); a plugin that raises here is left out, with what it
        added. Returns nothing.
        """


class TableSpec:
    """Hooks of a table's manager: the game's lifecycle."""

    # ---- the table -----------------------------------------------------
    @hookspec
    def cardcore_table_ready(self, table: Table) -> None:
        """The table is complete: the game and every house rule are registered.

        Called by ``Table`` once, when it is built, on every plugin that
        implements it (the game's first, then each house rule's, last
        registered first). The place to bind direct callers of a game's own
        hooks (``table.direct(hook, *argnames)``), which must see the house
        rules. Returns nothing.
        """

    # ---- players -----------------------------------------------------
    @hookspec
    def cardcore_register_players(self, register: Callable[[str, PlayerFactory], None]) -> None:
        """Register player kinds for this table: ``register(kind, factory)``.

        Called once per table, the first time it makes a player
        (``Table.player_kinds``: ``cardcore.kinds``). Games add their bots
        (``greedy``); the core's kinds (``human``, ``random``, ``ismcts`` and
        the levels) are added after, and win over a plugin's of the same name.
        A factory is called as ``factory(table, seat, rng)`` and returns a
        ``Player``.
        """

    # ---- match -------------------------------------------------------
    @hookspec(firstresult=True)
    def cardcore_build_deck(self, table: Table) -> list[Card] | None:
        """Return every card of the game's deck in new-deck order.

        Called by ``Table`` when it is built (the deck is fixed per table).
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_first_dealer(
        self, table: Table, rng: random.Random, record: Callable[..., None]
    ) -> int | None:
        """Return the first dealer's seat, drawing from ``rng`` only.

        Called by ``Match`` when it starts.  Chance steps worth keeping (the
        cards turned to find the dealer …) are passed to ``record(kind, **data)``
        and go to the game log.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_deal(
        self, table: Table, match: Match, rng: random.Random, record: Callable[..., None]
    ) -> DealState | None:
        """Shuffle, cut and deal: return the state at the start of a deal.

        Called by ``Match.start_deal`` with the match's RNG, which is the only
        randomness a deal may use.  ``match.dealer`` is the dealer.
        None: no opinion (the next implementation is asked).
        """

    # ---- one deal ----------------------------------------------------
    @hookspec(firstresult=True)
    def cardcore_legal_moves(self, state: DealState) -> list[Move] | None:
        """Return every legal move of ``state.to_act``, in a deterministic order.

        Called by the engine before every decision.  Must be complete: every
        legal move once, no illegal one.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_explain_illegal(self, state: DealState, move: Move) -> str | None:
        """Return why ``move`` is illegal in ``state`` (naming the rule), or None.

        Called by ``Table.apply`` only after ``move`` was found not legal.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_named_move(self, state: DealState, move: Move, legal: Sequence[Move]) -> Move | None:
        """Return ``move`` when it is a listed move laid with other cards the
        game holds equal, else None.

        Called by the engine's loop and ``Table.apply`` when a player's move
        is not among the ``legal`` ones: the list holds one move per kind of
        card where suits do not matter (Canasta, N8a), and a person who names
        a card of that kind (``discard 6S``) lays that card. The answer is the
        move to apply (``move`` itself, its cards in the mover's hand).
        None: not such a move (the next implementation is asked; with none,
        the move is illegal).
        """

    @hookspec(firstresult=True)
    def cardcore_apply_move(self, state: DealState, move: Move) -> DealState | None:
        """Play ``move`` (already known legal) on ``state`` in place; return ``state``.

        Called by ``Table.apply``.  Moves the turn on, deals more cards when
        the rules say so.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_is_deal_over(self, state: DealState) -> bool | None:
        """Return True when no more moves are to be played in this deal.

        Called by the engine after every move.
        None: no opinion (the next implementation is asked).
        """

    @hookspec
    def cardcore_finish_deal(self, state: DealState) -> None:
        """Tidy the table when the deal is over (cards left on the table …), in place.

        Called once by ``Match.end_deal`` (and by ``cardcore score``) before
        ``cardcore_score_deal``.  Every implementation is called.
        """

    @hookspec(firstresult=True)
    def cardcore_score_deal(self, state: DealState) -> list[SideScore] | None:
        """Return the points of each side of the finished deal, in side order.

        Called by ``Match.end_deal`` and by ``cardcore score``.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_score_position(self, state: DealState) -> list[SideScore] | None:
        """Return the points each side holds in a deal that is not over, in side order.

        Called by a search that stops a playout before the deal's end
        (``ismcts``'s ``depth``, through ``Table.score_position``), on an
        imagined state it may change. None: no opinion; then the deal is
        finished as it stands (``cardcore_finish_deal``) and scored
        (``cardcore_score_deal``), which suits a game whose tidying gives
        nobody what play would still decide.
        """

    @hookspec(firstresult=True)
    def cardcore_is_match_over(self, match: Match) -> bool | None:
        """Return True when the match is over after its last finished deal.

        Called by ``Match.end_deal``.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_match_winners(self, match: Match) -> list[int] | None:
        """Return the winning sides of a finished match (several when tied).

        Called by ``Match`` once the match is over.  Default: the highest total.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_next_dealer(self, match: Match, state: DealState) -> int | None:
        """Return the seat that deals the next deal.

        Called by ``Match.end_deal`` when the match goes on.  Default: the
        player to the dealer's left.
        None: no opinion (the next implementation is asked).
        """

    # ---- what players see --------------------------------------------
    @hookspec(firstresult=True)
    def cardcore_observe(self, state: DealState, seat: int | None) -> Observation | None:
        """Return what ``seat`` may see of ``state`` as data: nothing hidden from
        it (``Observation.of(state, seat, public)``); ``seat`` None is a
        spectator, who sees no hand.

        Called by the engine for bots and the terminal UI, never giving them
        the state itself; by ``Table.spectate`` for a public view.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_move_text(self, state: DealState | None, move: Move) -> str | None:
        """Return a human-readable text for ``move``.

        Called by the CLI and the log, never in the engine's inner loop.
        None: no opinion (the next implementation is asked).
        """

    # ---- positions and serialisation ----------------------------------
    @hookspec(firstresult=True)
    def cardcore_state_to_json(self, state: DealState) -> dict[str, Any] | None:
        """Return the state's fields as JSON data (the position-file format).

        Called by the log, ``Table.dump_state`` and ``Table.clone`` tests.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_state_from_json(self, table: Table, data: dict[str, Any]) -> DealState | None:
        """Build a state from position data; raise ``PositionError`` naming the field.

        Called by ``Table.load_state`` for position files and replays.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def cardcore_state_cards(self, state: DealState) -> list[Card] | None:
        """Return every card in ``state`` (hands, table, stock, piles …).

        Called by conformance checks (card conservation) and position loading.
        None: no opinion (the next implementation is asked).
        """

    # ---- search ------------------------------------------------------------
    @hookspec(firstresult=True)
    def cardcore_sample_state(self, state: DealState, seat: int, rng: random.Random) -> DealState | None:
        """Return a copy of ``state`` as ``seat`` may imagine it: every card he
        cannot see dealt at random among the places he cannot see into (the
        other hands and the stock, keeping their sizes), every card whose place
        he knows left where it is (his hand, the table, and whatever the game
        says he knows: in Canasta the cards an opponent took with the pile).
        ``state`` itself is not changed.

        Called by search bots (through ``Table.sample_state``) to determinize
        what a seat knows, and by the engine when a person takes a move back
        against bots (``runner._redeal``): the deal then goes on from the
        copy, so it must be a deal the rules can play on. The core's default
        redeals the other hands and the stock together. None: no opinion (the
        next implementation is asked).
        """

    # ---- learning agents (cardcore[rl]) -------------------------------------
    @hookspec(firstresult=True)
    def cardcore_rl_encoding(self, table: Table) -> Encoding | None:
        """Return the game's fixed-size arrays for learning agents: a
        ``cardcore.rl.encoding.Encoding`` (its action ids, one per move shape,
        and its observation vector, written from an ``Observation`` only).

        Optional. Called once per environment by ``cardcore.rl`` (its
        PettingZoo, Gymnasium and OpenSpiel adapters, through
        ``cardcore.rl.encoding.encoding_for``), never by the engine's loop. The
        game imports its encoding inside the hook (``cardcore.rl.encoding``
        needs no numpy; the environments do). None: no opinion; with no answer
        the generic fallback (``GenericEncoding``: the legal list padded to a
        cap, the view's cards counted) is used.
        """
