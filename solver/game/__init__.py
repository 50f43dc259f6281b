"""The game model, plain Python and numpy (no numba): dice and keeps (``dice``), the
scoring boxes (``boxes``), rule sets as data (``rules``), which states can occur
(``states``), one move of a turn (``move``), the rule book's text (``ruletext``), the
dice of a seeded game (``stream``) and a played game's moves (``trace``)."""
