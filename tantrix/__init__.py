"""The ``tantrix`` command line: one module per subcommand, ``cli.py`` ties them together."""
