from simkit.cli import entry

entry()
