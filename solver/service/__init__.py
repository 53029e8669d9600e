"""The layer that joins the engine to the rulesets, for the command line and Python alike (it never
imports the command line, solver.cli): ``setup`` builds a game's ruleset, deals and limits;
``solving`` solves one deal; ``verification`` replays a line; ``replay_page`` draws a line as a
self-contained HTML page; ``inputs`` reads files and standard input as text, ``deal_file`` files of
deals or positions; ``seeds``, ``store``, ``survey`` and ``report`` run surveys and say what they
found; ``stats`` holds their statistics."""
