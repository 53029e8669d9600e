"""Independent brute forces, one module per game family: each written from the rules alone, with
its own representation of cards and layouts, so that agreement with a ruleset means something."""
