"""Built-in rule sets; importing this package registers them."""
