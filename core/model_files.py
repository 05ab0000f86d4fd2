"""Reading a model folder without running its code (tagger and generator plugins).

Models travel between teams and through DVC remotes, so a model folder is data, never code:
weights come from safetensors, settings from JSON, and a pickle (flair's ``best-model.pt``, a
transformers ``pytorch_model.bin``) is never unpickled, unless the user says they trust the
folder (``synthdeid deidentify --trust-model``, which sets ``trusting_pickles``; only the flair
tagger has pickles to load). Every problem with a folder is an ``InputError`` naming the file
and the fix, never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from synthdeid.errors import InputError, SynthdeidError

if TYPE_CHECKING:
    import torch

T = TypeVar("T")

PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt")
PICKLE_PROBLEM = "is a pickle, which runs whatever code it holds when loaded: not loaded"
HF_SAFE = {"use_safetensors": True, "trust_remote_code": False, "local_files_only": True}
"""``from_pretrained`` arguments that read safetensors weights only, run no code from the folder
and never reach a model hub."""

_trusted: ContextVar[bool] = ContextVar("synthdeid_trusted_pickles", default=False)


@contextmanager
def trusting_pickles(trust: bool = True) -> Iterator[None]:
    """Inside the block, loaders may unpickle model files (``--trust-model``)."""
    token = _trusted.set(trust)
    try:
        yield
    finally:
        _trusted.reset(token)


def pickles_trusted() -> bool:
    return _trusted.get()


def refuse_pickle(path: Path, fix: str) -> NoReturn:
    raise InputError(PICKLE_PROBLEM, path=path, fix=fix)


def brief(e: BaseException, limit: int = 300) -> str:
    """An exception's message on one line, cut at ``limit`` characters."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[:limit] + " ..."


def read_json(path: Path, fix: str, parse: Callable[[Any], T] = lambda data: data) -> T:
    """``parse`` of the JSON in ``path``; a missing file, malformed JSON or data ``parse`` cannot
    use (a missing key, a wrong type) is an ``InputError`` naming ``path``."""
    if not path.is_file():
        raise InputError("is missing", path=path, fix=fix)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InputError(f"is not valid JSON ({e.msg}, column {e.colno})", path=path, line=e.lineno, fix=fix) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot be read ({brief(e)})", path=path, fix=fix) from None
    try:
        if not isinstance(data, dict):
            raise TypeError(f"a JSON object expected, got {type(data).__name__}")
        return parse(data)
    except InputError:
        raise
    except KeyError as e:
        raise InputError(f"lacks the key {e.args[0]!r}", path=path, fix=fix) from None
    except (SynthdeidError, TypeError, ValueError, AttributeError, IndexError, RuntimeError) as e:
        raise InputError(f"holds an unexpected value ({brief(e)})", path=path, fix=fix) from None


def load_safetensors(path: Path, fix: str) -> dict[str, torch.Tensor]:
    """The tensors of a safetensors file (never a pickle); a damaged file is an ``InputError``."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    if not path.is_file():
        raise InputError("is missing", path=path, fix=fix)
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError) as e:
        raise InputError(
            f"cannot be read as safetensors weights, the file is damaged ({brief(e)})", path=path, fix=fix
        ) from None


def load_weights(module: torch.nn.Module, path: Path, fix: str, described_by: str) -> None:
    """Load ``module``'s weights from the safetensors file ``path`` (every weight, no other);
    ``described_by`` names the files ``module`` was built from."""
    state = load_safetensors(path, fix)
    try:
        module.load_state_dict(state)
    except RuntimeError as e:
        raise InputError(f"does not fit the network {described_by} describe ({brief(e)})", path=path, fix=fix) from None


def safetensors_folder(folder: Path, fix: str) -> None:
    """Refuse a transformers/peft folder without safetensors weights, naming the pickle it holds."""
    if not folder.is_dir():
        raise InputError("is not a local model folder", path=folder, fix=fix)
    if any(folder.glob("*.safetensors")) or any(folder.glob("*.safetensors.index.json")):
        return
    pickles = sorted(p for p in folder.iterdir() if p.suffix in PICKLE_SUFFIXES)
    if pickles:
        refuse_pickle(pickles[0], fix)
    raise InputError("holds no safetensors weights (*.safetensors)", path=folder, fix=fix)


def from_pretrained(load: Callable[..., T], folder: str | Path, fix: str, **kwargs: Any) -> T:
    """``load(folder, **kwargs)``, a transformers ``from_pretrained``, from safetensors weights only
    (``HF_SAFE``); a folder it cannot load is an ``InputError``."""
    from safetensors import SafetensorError

    folder = Path(folder)
    safetensors_folder(folder, fix)
    try:
        return load(str(folder), **HF_SAFE, **kwargs)
    except (SafetensorError, OSError, ValueError, RuntimeError, KeyError) as e:
        raise InputError(
            f"cannot be loaded, the file is damaged or missing ({brief(e)})", path=_damaged(folder), fix=fix
        ) from None


def _damaged(folder: Path) -> Path:
    """The first safetensors file in ``folder`` whose header does not read, else ``folder``."""
    from safetensors import safe_open

    for path in sorted(folder.glob("*.safetensors")):
        try:
            with safe_open(str(path), "pt"):
                pass
        except Exception:  # noqa: BLE001 - any failure marks the file
            return path
    return folder


def tokenizer_from(load: Callable[..., T], folder: str | Path, fix: str, **kwargs: Any) -> T:
    """``load(folder, **kwargs)``, a tokenizer's ``from_pretrained``, running no code from the folder."""
    try:
        return load(str(folder), trust_remote_code=False, local_files_only=True, **kwargs)
    except (OSError, ValueError, RuntimeError, KeyError, TypeError, ImportError) as e:
        raise InputError(f"holds no tokenizer that loads ({brief(e)})", path=folder, fix=fix) from None
