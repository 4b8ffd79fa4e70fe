"""The one exception type for bad user input: the CLI turns it into exit status 2 and one line."""


class SimkitError(ValueError):
    """Bad input from the user: unknown game, option, value, strategy, grid or results file."""
