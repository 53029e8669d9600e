"""The ``patience`` command: list, describe, deal, solve and verify games, and run surveys.

A thin layer over :mod:`solver.service`: each command reads its options, calls the service and
prints what it returns. The console script is :mod:`solver.cli.entry`, the parser and every
ending :mod:`solver.cli.application`; this package imports nothing itself, so that the console
script's Ctrl-C handler is set before anything slow loads.
"""
