"""The runtime: what runs games for people and programs, above the engine.

Finding plugins (`plugins`), loading rule sets by name or path (`loading`), starting games with
their logic and the plugins' observers (`games`), saves and replay (`saves`), play sessions
(`session`), bots by spec (`bots`) and batches of games (`simulation`). The engine below knows
none of this; the command line and the library API above use it.
"""
