"""The terminal client of a guts server: ``guts join JOIN_URL --name Jo``.

:mod:`guts.client.terminal` plays one seat of a web table (or watches it) over the
table's websocket, speaking the protocol of ``docs/protocol.md``, with the narration,
panels and prompts of ``guts play``. It needs the ``websockets`` package (in the
``server`` extra) and nothing of the server itself.
"""
