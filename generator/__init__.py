"""skillc: compile Agent Skills, subagents and tool manifests into a typed Python package."""

__version__ = "0.1.0"
