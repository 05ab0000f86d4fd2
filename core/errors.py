"""Errors that tell the user where the problem is and how to fix it."""

from __future__ import annotations


class SynthdeidError(Exception):
    """Base class of every error synthdeid raises on purpose."""


class InputError(SynthdeidError, ValueError):
    """Bad input: names the file, line or document and says how to fix it."""

    def __init__(
        self,
        problem: str,
        *,
        path: object | None = None,
        line: int | None = None,
        doc_id: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.problem = problem
        self.path = None if path is None else str(path)
        self.line = line
        self.doc_id = doc_id
        self.fix = fix
        super().__init__(self._message())

    def where(self) -> str:
        parts = []
        if self.path is not None:
            parts.append(self.path if self.line is None else f"{self.path}:{self.line}")
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.doc_id is not None:
            parts.append(f"document {self.doc_id!r}")
        return ", ".join(parts)

    def _message(self) -> str:
        where = self.where()
        msg = f"{where}: {self.problem}" if where else self.problem
        if self.fix:
            msg += f"\n  fix: {self.fix}"
        return msg

    def located(self, *, path: object | None = None, line: int | None = None, doc_id: str | None = None) -> InputError:
        """The same error with location details filled in where they were missing."""
        return InputError(
            self.problem,
            path=self.path if self.path is not None else path,
            line=self.line if self.line is not None else line,
            doc_id=self.doc_id if self.doc_id is not None else doc_id,
            fix=self.fix,
        )


class InputWarning(UserWarning):
    """Input read with a doubt (files in a folder that were not read, offsets that may be shifted):
    the message names the file and the fix, as an ``InputError``'s does."""


class UnknownPluginError(SynthdeidError, LookupError):
    """A plugin name that no installed package registered."""


class SurrogateError(SynthdeidError):
    """A PHI span got no acceptable surrogate: pseudonymization fails closed."""
