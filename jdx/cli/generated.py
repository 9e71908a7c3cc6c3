"""One click command per registry command, generated from its request type: the `--help` of query commands.

The flags, defaults, choices and help text shown are the request fields' own; the example is the
command's. Parsing and answering stay with the registry (`jdx.commands.argv`), so help cannot drift from
what the command accepts.
"""

from __future__ import annotations

from jdx.commands.registry import Command, params_of, registry


def global_epilog() -> str:
    from jdx.cli.main import GLOBAL_HELP

    width = max(len(f) for f, _ in GLOBAL_HELP)
    return "\b\nGlobal flags (before or after the command):\n" + "\n".join(
        f"  {flag.ljust(width)}  {text}" for flag, text in GLOBAL_HELP)


def _values(p) -> str | None:
    """The metavar of a flag taking one of a few values: the values themselves (`[all|suspicious|breaking]`)."""
    values = p.choices or p.accepts
    return f"[{'|'.join(values)}]" if values else None


def click_command(cmd: Command):
    import click

    options = []
    for p in params_of(cmd.request):
        if not p.flag:
            options.append(click.Argument([p.name], required=p.required, metavar=p.metavar))
            continue
        help_text = p.help
        if p.kind == "bool":
            decls = [f"{p.flag}/{p.negative}"] if p.negative else [p.flag]
            options.append(click.Option([*decls, p.name], is_flag=True, default=p.default, help=help_text))
        elif p.kind == "list":
            options.append(click.Option([p.flag, p.name], multiple=True, help=help_text,
                                        metavar=p.metavar or _values(p) or "TEXT"))
        else:
            shown = p.default is not None
            options.append(click.Option([p.flag, p.name], default=p.default, show_default=shown, help=help_text,
                                        type=int if p.kind == "int" else str, metavar=p.metavar or _values(p)))
    return click.Command(cmd.name, params=options, callback=None,
                         help=f"{cmd.summary} Example: {cmd.example}", short_help=cmd.summary,
                         epilog=global_epilog(), context_settings={"help_option_names": ["-h", "--help"]})


def add_registry_commands(group) -> None:
    for cmd in registry():
        group.add_command(click_command(cmd))

