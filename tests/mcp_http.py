"""What an MCP client sends first over streamable HTTP: the `initialize` request and the
`Accept` header the transport asks for."""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "stockshot-tests", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}
