"""Independent brute forces, one module per game family: each written from the rules with its
own representation, sharing no code with rulesets, and enumerating every reachable layout."""
