"""Independent brute forces, one module per game family: each written from the rules alone,
with its own representation, so that agreement with a ruleset means something."""
