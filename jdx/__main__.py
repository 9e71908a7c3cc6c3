from jdx.cli.main import entry

entry()
