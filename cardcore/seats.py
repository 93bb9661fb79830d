"""Seats, sides and turn order.

Seats are numbered 0..n-1 clockwise: the player to a seat's left is the next
seat (``left_of``), the player to its right the previous one (``right_of``).
Sides are numbered too: with partnerships side 0 = seats 0 and 2, side 1 =
seats 1 and 3 (partners opposite); without, side i = seat i.
"""

from __future__ import annotations


def left_of(seat: int, players: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The previous seat clockwise."""
    return (seat - 1) % players


def clockwise_from(seat: int, players: int) -> list[int]:
    """All seats, starting at ``seat`` and going clockwise."""
    return [(seat + i) % players for i in range(players)]


def make_sides(players: int, partnerships: bool) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: partners opposite when ``partnerships``."""
    if partnerships:
        if players % 2:
            raise ValueError("partnerships need an even number of players")
        half = players // 2
        return tuple(tuple(range(s, players, half)) for s in range(half))
    return tuple((s,) for s in range(players))


def side_of_seats(sides: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """For each seat, the number of its side."""
    out = [0] * sum(len(s) for s in sides)
    for i, seats in enumerate(sides):
        for seat in seats:
            out[seat] = i
    return tuple(out)
