"""Authoring tools for rule files: the formatter (`castell fmt`) and the language server.

They sit at the command-line layer: they read rule files through the language package and load
rule sets through the runtime exactly as `castell validate` does, so what an editor shows is
what the engine would say.
"""
