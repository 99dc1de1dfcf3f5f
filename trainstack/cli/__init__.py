"""The command line: the typer app, each command's options and output, project discovery, usage errors."""
