"""The MCP adapter (spec §14.2): `jdx mcp`, tools generated from the command registry."""
