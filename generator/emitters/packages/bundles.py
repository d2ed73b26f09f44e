"""Upload bundles for provider-hosted skills: ``packages/openai-skills/<name>.zip``
and ``packages/anthropic-skills/<name>.zip``, one a skill, each with ONE top-level
folder, the skill's name, holding ``SKILL.md`` and the skill's other files. Anthropic's
skills API: 'All files must be in the same top-level directory and must include a
SKILL.md file at the root of that directory' (platform.claude.com/docs/en/api/skills/
create.md); OpenAI's: 'upload a .zip that contains a single top-level folder'
(developers.openai.com/api/docs/guides/tools-skills, Create a skill; openai-python's
``skills.create`` takes 'a single zip file': src/openai/resources/skills/
skills.py@e43b422:95). Stored with fixed times and modes, sorted (SKILL.md
first), so each zip's bytes, and the digest the lock records, depend on the files
alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..well_known import archive
from .common import Bundle, Files, LeftOut, admitted

KINDS = frozenset({"skill"})


def emitter(client: str) -> Callable[[Bundle, LeftOut], Files]:
    """The bundles' emitter of ``client`` (openai-skills, anthropic-skills)."""

    def emit(bundle: Bundle, left: LeftOut) -> Files:
        # A skills bundle, by definition: its subagents and commands are no loss.
        skills = replace(bundle, members=bundle.of("skill"))
        bundle = admitted(skills, client, KINDS, left, plugin=False)
        return {
            f"{skill.name}.zip": archive(
                [(f"{skill.name}/{path}", data) for path, data in skill.files]
            )
            for skill in bundle.members
        }

    return emit
