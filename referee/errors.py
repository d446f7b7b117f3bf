"""The one exception type for bad input anywhere in the project."""


class BadInput(ValueError):
    """Input that cannot be used (malformed JSON, impossible board, unreadable photo...).

    Its message is one line naming the problem; the CLI prints it and exits with code 2,
    the web app answers 400 with it.
    """
