"""The daemon's executor: `jdx.commands.host.Host`, shared with the MCP and HTTP adapters."""

from jdx.commands.host import Host

__all__ = ["Host"]
