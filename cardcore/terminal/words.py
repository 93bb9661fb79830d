"""The words a person types at the terminal: the prompt's commands (``q``,
``h``, ``why`` …, in English and in the language in use) and cards or ranks
in the language's letters, read back into the canonical notation."""

from __future__ import annotations

from typing import Any

from cardcore import i18n
from cardcore.cards import CardError, parse_card
from cardcore.i18n import NP_, _p

# the words typed at the prompt: English always, and the language's own
# (``_p("command", …)``): a command is known by any of its words
COMMANDS: dict[str, tuple[str, ...]] = {
    # i18n: a word typed at the prompt (q: quit); each command's words distinct from the others'
    "quit": (NP_("command", "q"), NP_("command", "quit"), NP_("command", "exit")),
    "save": (NP_("command", "s"), NP_("command", "save")),
    "hint": (NP_("command", "h"), NP_("command", "hint")),
    "undo": (NP_("command", "u"), NP_("command", "undo")),
    "why": (NP_("command", "why"),),
    "help": (NP_("command", "help"),),  # and "?", "" (Enter)
    "back": (NP_("command", "b"), NP_("command", "back")),  # and "0"
    # i18n: the answer typed to "Save the game …? (y/n)"
    "yes": (NP_("answer", "y"), NP_("answer", "yes")),
    "no": (NP_("answer", "n"), NP_("answer", "no")),
}


def command_words(command: str) -> set[str]:
    """The words (lower case) that type ``command``: English and the language in use's."""
    context = "answer" if command in ("yes", "no") else "command"
    english = COMMANDS[command]
    return {w.lower() for w in english} | {_p(context, w).lower() for w in english}


def command_word(command: str) -> str:
    """The shortest word of ``command`` in the language in use (the prompt's ``h``)."""
    context = "answer" if command in ("yes", "no") else "command"
    return _p(context, COMMANDS[command][0])


def typed_card(token: str) -> str:
    """A card or a rank a person typed, in canonical notation: the language's
    letters and names (``RH`` → ``KH``, ``D`` → ``Q`` in Polish, ``T`` → ``A``
    in Lithuanian) or English, as typed."""
    if i18n.language() == i18n.SOURCE:
        return token
    letters = {v.upper(): k for k, v in i18n.rank_letters(i18n.language()).items()}
    if token.upper() in letters:  # a rank alone (``meld D D D``)
        return letters[token.upper()]
    return i18n.card_input(token) if token.strip() else token


def covers(tokens: list[str], cards: list[Any], by_rank: bool = False) -> bool:
    """Whether each token names a different one of ``cards`` (all of them):
    a full card (``9s``, ``9♠``) names that card (any card of its rank where
    suits do not matter, ``by_rank``), a rank (``9``, ``K``, ``joker``) any
    card of that rank."""
    if len(tokens) != len(cards):
        return False
    left = list(cards)
    for token in sorted(tokens, key=lambda t: -len(t)):  # full cards before bare ranks
        for i, c in enumerate(left):
            if names_card(token, c, by_rank):
                del left[i]
                break
        else:
            return False
    return True


def names_card(token: str, c: Any, by_rank: bool = False) -> bool:
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
