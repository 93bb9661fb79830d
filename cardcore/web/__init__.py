"""The browser table (``cardcore serve``): a lobby, a page per seat, secrets
kept on the server. ``session`` plays one table, ``lobby`` holds a server's
tables, ``app`` is the Starlette application; the pages are in ``static/``."""
