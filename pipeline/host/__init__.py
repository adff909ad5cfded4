"""The agent host: tool groups over MCP, context, files by reference, guards, and the run loop."""
