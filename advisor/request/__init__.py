"""The request layer under both front ends: every option declared once (``params``) and
the questions the CLI and the HTTP API both answer, checked once and answered once, one
module each (``advise_question``, ``stats_question``, ``train_question``,
``grade_question``, ``turn_question``, ``analyze_question``); the page's own requests
(``page``), a card as they all read it (``cards``), and what the server's worker runs of
them (``worker``). A question is built from the keyword arguments the option table gives
(the command's, or :func:`~advisor.request.params.read_query`'s) and checked before any
table is built; ``solve`` does the work, ``json`` builds the one answer of the command's
``--json`` and of the API. Questions are frozen and hashable: the server caches them and
hands them to its worker. It imports the model and the solver, never ``advisor.cli`` or
``advisor.web``."""
