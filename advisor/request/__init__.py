"""The request layer under both front ends: every option declared once (``params``) and
the questions the CLI and the HTTP API both answer (``answers``). It imports the model
and the solver, never ``advisor.cli`` or ``advisor.web``."""
