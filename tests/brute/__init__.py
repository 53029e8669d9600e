"""Independent brute forces, one module per game family: each written from the rules alone, with
its own representation of cards and layouts, to check the rulesets and the search against."""
