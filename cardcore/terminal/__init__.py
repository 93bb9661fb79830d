"""The terminal: the person who plays there and what he sees.

* ``human``: ``HumanPlayer``, a person's seat (his view, the menu of moves,
  the prompt and what he types read back);
* ``words``: the words he types (the prompt's commands, cards in the
  language's letters);
* ``printer``: the game as it goes (``Printer``), a replay step by step
  (``StepPrinter``);
* ``autosave``: a game with a person kept resumable move by move (``Journal``).

Nothing here is imported by the engine: a table, a simulation or the browser
table loads no terminal.
"""
