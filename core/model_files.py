"""Reading a model folder without running its code (tagger and generator plugins).

Models travel between teams and through DVC remotes, so a model folder is data, never code:
weights come from safetensors, settings from JSON, and a pickle (flair's ``best-model.pt``, a
transformers ``pytorch_model.bin``) is never unpickled, unless the user says they trust the
folder (``synthdeid deidentify --trust-model``, which sets ``trusting_pickles``; only the flair
tagger has pickles to load; unpickling one says so on stderr). Every problem with a folder is an
``InputError`` naming the file and the fix, never a traceback: a file that is no regular file (a
FIFO, a folder), JSON nested past the recursion limit, sizes beyond ``synthdeid.model_limits``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from synthdeid.errors import InputError, SynthdeidError
from synthdeid.model_limits import HF_KEYS, check_sizes, fits

if TYPE_CHECKING:
    import torch

T = TypeVar("T")

PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt")
PICKLE_PROBLEM = "is a pickle, which runs whatever code it holds when loaded: not loaded"
ADAPTER_FILES = ("adapter_config.json", "adapter_model.safetensors")
"""What peft's ``save_pretrained`` writes for an adapter with safetensors weights."""
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
    """Whether pickled model files may be loaded here (inside ``trusting_pickles``: ``--trust-model``)."""
    return _trusted.get()


def refuse_pickle(path: Path, fix: str) -> NoReturn:
    """Raise the ``InputError`` for a pickled model file that is not trusted."""
    raise InputError(PICKLE_PROBLEM, path=path, fix=fix)


def unpickling(path: Path, why: str = "--trust-model") -> None:
    """Say on stderr that ``path`` is being unpickled (trusted by ``why``): it runs what it holds."""
    print(f"warning: unpickling {path} ({why}): it runs whatever code it holds", file=sys.stderr)


def adapter_folder(folder: Path, fix: str) -> None:
    """Refuse a peft adapter folder without what peft writes with safetensors (``ADAPTER_FILES``):
    given no ``adapter_model.safetensors``, peft unpickles an ``adapter_model.bin``."""
    if not folder.is_dir():
        raise InputError("is not a local adapter folder", path=folder, fix=fix)
    weights = folder / ADAPTER_FILES[1]
    if not weights.exists() and (folder / "adapter_model.bin").exists():
        refuse_pickle(folder / "adapter_model.bin", fix)
    for name in ADAPTER_FILES:
        regular_file(folder / name, fix)
    config: dict[str, Any] = read_json(folder / ADAPTER_FILES[0], fix)
    check_sizes(config, {"r": "width"}, folder / ADAPTER_FILES[0], fix)


def brief(e: BaseException, limit: int = 300) -> str:
    """An exception's message on one line, cut at ``limit`` characters."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[:limit] + " ..."


def regular_file(path: Path, fix: str) -> None:
    """Refuse a missing ``path``, or one that is no regular file (a folder, a FIFO, a device: reading
    one could block or never end)."""
    if not path.exists() and not path.is_symlink():
        raise InputError("is missing", path=path, fix=fix)
    if not path.is_file():
        raise InputError(
            "is not a regular file (a folder, a FIFO, a device or a broken link): not read", path=path, fix=fix
        )


def load_json(path: Path, fix: str) -> Any:
    """The JSON value in the regular file ``path``; a missing file, malformed JSON, nesting deeper
    than Python's recursion limit or a number too long to convert is an ``InputError`` naming it."""
    regular_file(path, fix)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InputError(f"is not valid JSON ({e.msg}, column {e.colno})", path=path, line=e.lineno, fix=fix) from None
    except RecursionError:
        raise InputError(
            f"nests its JSON deeper than {sys.getrecursionlimit()} levels (no model file does): not read",
            path=path,
            fix=fix,
        ) from None
    except (OSError, UnicodeDecodeError, ValueError) as e:  # ValueError: a number of thousands of digits
        raise InputError(f"cannot be read ({brief(e)})", path=path, fix=fix) from None


def read_json(path: Path, fix: str, parse: Callable[[Any], T] = lambda data: data) -> T:
    """``parse`` of the JSON object in ``path`` (``load_json``); data ``parse`` cannot use (a missing
    key, a wrong type) is an ``InputError`` naming ``path``."""
    data = load_json(path, fix)
    try:
        if not isinstance(data, dict):
            raise TypeError(f"a JSON object expected, got {type(data).__name__}")
        return parse(data)
    except InputError:
        raise
    except KeyError as e:
        raise InputError(f"lacks the key {e.args[0]!r}", path=path, fix=fix) from None
    except (SynthdeidError, TypeError, ValueError, AttributeError, IndexError, RuntimeError, RecursionError) as e:
        raise InputError(f"holds an unexpected value ({brief(e)})", path=path, fix=fix) from None


def json_files(folder: Path, fix: str) -> None:
    """Read every ``*.json`` of ``folder`` (``load_json``) before a library does: its errors name the
    folder, or end in a ``RecursionError``, where ours name the file."""
    for path in sorted(folder.glob("*.json")):
        load_json(path, fix)


def load_safetensors(path: Path, fix: str) -> dict[str, torch.Tensor]:
    """The tensors of a safetensors file (never a pickle); a damaged file is an ``InputError``."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    regular_file(path, fix)
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
    for path in sorted(folder.glob("*.safetensors")):
        regular_file(path, fix)
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
    json_files(folder, fix)
    _hf_sizes(load, folder, fix, kwargs)
    try:
        return load(str(folder), **HF_SAFE, **kwargs)
    except (SafetensorError, OSError, ValueError, RuntimeError, KeyError) as e:
        raise InputError(
            f"cannot be loaded, the file is damaged or missing ({brief(e)})", path=_damaged(folder), fix=fix
        ) from None


def stored_weights(paths: Iterable[Path], fix: str) -> int:
    """The number of values the safetensors files ``paths`` store (read from their headers)."""
    from safetensors import SafetensorError, safe_open

    total = 0
    for path in paths:
        regular_file(path, fix)
        try:
            with safe_open(str(path), "pt") as f:
                for key in f.keys():  # noqa: SIM118 - a safe_open handle is no mapping
                    n = 1
                    for d in f.get_slice(key).get_shape():
                        n *= d
                    total += n
        except (SafetensorError, OSError, ValueError, RuntimeError) as e:
            raise InputError(
                f"cannot be read as safetensors weights, the file is damaged ({e})", path=path, fix=fix
            ) from None
    return total


def _hf_sizes(load: Callable[..., Any], folder: Path, fix: str, overrides: Mapping[str, Any]) -> None:
    """Check a transformers folder's ``config.json`` sizes, then (without ``overrides``, which
    change the head) that the model ``load``'s class builds from it fits its safetensors files."""
    path = folder / "config.json"
    if not path.exists():
        return  # transformers names what is missing
    config: dict[str, Any] = read_json(path, fix)
    check_sizes(config, HF_KEYS, path, fix)
    cls = getattr(load, "__self__", None)
    weights = sorted(folder.glob("*.safetensors"))
    if overrides or not weights or cls is None or not hasattr(cls, "from_config"):
        return
    from transformers import AutoConfig

    try:
        settings = AutoConfig.from_pretrained(str(folder), trust_remote_code=False, local_files_only=True)
        stored = stored_weights(weights, fix)
        fits(lambda: cls.from_config(settings), stored, path, fix, ", ".join(p.name for p in weights))
    except InputError:
        raise
    except (OSError, ValueError, TypeError, KeyError, RuntimeError, AttributeError):
        return  # a config transformers cannot build: its own load says so


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
    if Path(folder).is_dir():
        json_files(Path(folder), fix)
    try:
        return load(str(folder), trust_remote_code=False, local_files_only=True, **kwargs)
    except (OSError, ValueError, RuntimeError, KeyError, TypeError, ImportError) as e:
        raise InputError(f"holds no tokenizer that loads ({brief(e)})", path=folder, fix=fix) from None
