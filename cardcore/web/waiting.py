"""A browser table before it begins: who sat down, who may start it, the
seats given to bots at its start (docs/WEB.md, "How a table is made, waits
and starts").

``WaitingRoom`` is plain data and the rules that change it; its
``TableSession`` holds the lock around each call (``sit``, ``may_begin``,
``begin``), publishes what changed, and journals the seats handed to bots
(``begin``).
"""

from __future__ import annotations

from typing import Any

from cardcore.i18n import T, Text, to_data


class WaitingRoom:
    """The people's seats (``people``) and how far the table is from beginning."""

    def __init__(self, people: list[int]) -> None:
        self.people = people
        self.seated: set[int] = set()  # the people's seats sat at (``sit``)
        # the seat that may start the table before everyone came: its maker's; a table the
        # server opened: the first person to sit
        self.host: int | None = None
        self.maker_seat: int | None = None  # the seat its maker took as he made it in the lobby
        self.begun = not people  # a show of bots begins at once
        self.bot_seats: list[int] = []  # the people's seats given to bots at the start
        self.notices: list[str] = []  # said in the history with the first deal (``Steps``)

    def sit(self, seat: int) -> bool:
        """A person sits at ``seat``; False if it is no person's seat or he sat
        already. The first one is the host when there is none; the table
        begins when every person sat down."""
        if seat not in self.people or seat in self.seated:
            return False
        self.seated.add(seat)
        if self.host is None and not self.begun:
            self.host = seat
        if self.seated.issuperset(self.people):
            self.begun = True
        return True

    def awaited(self) -> list[int]:
        """The people's seats nobody sat at yet, while the table waits."""
        return [] if self.begun else [i for i in self.people if i not in self.seated]

    def may_begin(self, by: int, host_gone: bool) -> str | None:
        """None if ``by`` may start the table now (its host; a person who sat
        down, once the host is away past the away limit: ``host_gone``; or
        started already), else why not."""
        if self.begun or by == self.host:
            return None
        if by in self.seated and host_gone:
            return None  # the maker never came, or went: the others need not wait for ever
        return T("only the one who made this table may start it")

    def give_to_bots(self, seats: list[int]) -> None:
        """*Start*: ``seats`` go to bots, the table says so with its first deal, and begins."""
        self.bot_seats = sorted({*self.bot_seats, *seats})
        self.notices = self.bot_notices()
        self.begun = True

    def bot_notices(self) -> list[str]:
        """What the table says of the seats given to bots at its start (the
        bot a covered seat gets, ``Desk.cover_move``: the game's greedy, its ``normal`` level)."""
        level = Text("cardcore", "normal", {}, context="level")
        seats = [seat + 1 for seat in self.bot_seats]  # counted from 1, as its new name ("Normal 3")
        # i18n: a person's seat nobody took, given to a bot when the table's maker started it
        return [T("Seat {n} is played by a bot ({level})", n=n, level=level) for n in seats]

    def shown_name(self, seat: int, name: str) -> str:
        """``seat``'s name (``name``, the table's) as the pages show it: *free
        seat* for a person's seat nobody took yet that the table named by
        default (its number); the table's own name once someone sits there."""
        default = isinstance(name, Text) and name.msgid == "Player {n}"
        if default and seat in self.people and seat not in self.seated and not self.begun:
            return T("free seat")
        return name

    def data(self) -> dict[str, Any]:
        """The frames' ``start``: whether the table began, its host, the seats
        awaited, and those given to bots at its start."""
        return {
            "begun": self.begun,
            "host": self.host,
            "awaited": self.awaited(),
            "bots": list(self.bot_seats),
            "notices": [to_data(n) for n in self.bot_notices()],
        }
