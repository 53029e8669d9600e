"""The layer that joins the engine to the rulesets for what solving, hinting, playing, verifying
and printing share, for the command line and Python alike: ``setup`` builds a game's ruleset,
deals and limits; ``solving`` solves one deal; ``hinting`` lists a position's moves; ``chances``
judges a position whose stock lies face down; ``playing`` and ``replaying`` play a deal with a
player and play a record again; ``solution_file`` reads a line or a record and ``verification``
holds it to its claims; ``replay_page`` draws a line as a self-contained HTML page;
``catalogue`` and ``engines`` say what is on offer and which engine runs; ``inputs`` reads files
and standard input as text, ``deal_file`` files of deals or positions, ``seeds`` seed ranges;
``stats`` holds the statistics of a share won; ``output`` and ``printing`` write what a command
produces whole or not at all.

What it may import: the engine (``solver/*.py``) and the rulesets. Never the command line
(:mod:`solver.cli`), nor the surveys (:mod:`solver.surveys`), which build on it."""
