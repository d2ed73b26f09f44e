"""An OpenAI-compatible endpoint (a profile's ``provider = "openai-compatible"``): it
takes OpenAI's Chat Completions file, and has no files or names of its own."""

from __future__ import annotations

from ...emitters.providers import File

FILES: tuple[File, ...] = ()
NAMES = None
PROFILE_FILES = ("openai-chat.json",)
