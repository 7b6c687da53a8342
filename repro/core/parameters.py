"""Notebook parameters read the way papermill users write them.

Every notebook's parameters cell annotates each parameter with its type (``DATASETS:
"Optional[list[str]]" = None``), which papermill's ``--help-notebook`` shows, and
:func:`coerce` reads a value given on papermill's command line or typed into the cell
against that type:

- a single value where a list is expected is a list of one (``-p DATASETS sonar`` is
  ``["sonar"]``, not the letters of "sonar"); ``-p DATASETS pima,sonar`` and
  ``-p DATASETS "[pima, sonar]"`` are two names;
- text where a number, a dict or None is expected is read as YAML, as papermill's ``-y``
  reads it (``-r MAX_FOLDS 1`` is the integer 1);
- lists given for tuples (YAML has no tuples) become tuples;
- anything else that does not fit is a ``ValueError`` naming the parameter, what it
  expects and what it got.

Annotations use the names ``bool``, ``int``, ``float``, ``str``, ``list``, ``tuple``,
``dict``, ``Optional`` and ``Union`` only: papermill's parser reads ``Optional[int]`` but
not ``int | None``.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any, Optional, Union

__all__ = ["UNSET", "Parameter", "coerce", "describe", "parse_annotation"]

_NAMES = {
    "bool": bool,
    "int": int,
    "float": float,
    "str": str,
    "list": list,
    "tuple": tuple,
    "dict": dict,
    "Optional": Optional,
    "Union": Union,
    "None": type(None),
}


def parse_annotation(annotation: str) -> Any:
    """The type an annotation string names, e.g. ``"Optional[list[str]]"``.

    Only the names listed in the module docstring are known, so a typo in a notebook's
    parameters cell is an error here rather than a parameter that is never checked.
    """
    try:
        return eval(annotation, {"__builtins__": {}}, dict(_NAMES))  # the notebooks' own text
    except Exception as err:
        raise ValueError(
            f"cannot read the parameter type {annotation!r} ({err}); use {', '.join(_NAMES)}"
        ) from err


def describe(tp: Any) -> str:
    """``tp`` in words: ``Optional[list[str]]`` -> "None or a list of str"."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Union:
        parts = [describe(a) for a in args if a is not type(None)]
        none = ["None"] if type(None) in args else []
        return " or ".join(none + parts)
    if origin is list:
        return f"a list of {_short(args[0]) if args else 'values'}"
    if origin is tuple:
        return f"a tuple ({', '.join(_short(a) for a in args)})"
    if origin is dict:
        return f"a dict of {_short(args[0])} to {_short(args[1])}"
    return {
        bool: "True or False",
        int: "an integer",
        float: "a number",
        str: "str",
        type(None): "None",
    }.get(tp, getattr(tp, "__name__", str(tp)))


def _short(tp: Any) -> str:
    return tp.__name__ if tp in (bool, int, float, str) else describe(tp)


class _Mismatch(Exception):
    """A value does not fit a type (turned into one ValueError naming the parameter)."""


def _yaml(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise _Mismatch(f"{text!r} is not a YAML value") from err


def _number(text: str) -> Any:
    """Text read as a number the way Python reads one (YAML 1.1 reads "1e-3" as text)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return _yaml(text)


def _is_a(value: Any, tp: Any) -> bool:
    if tp in (int, float):
        # True is no number here; an int is a float as given (1000 stays 1000, as printed)
        kinds = (int, float) if tp is float else int
        return isinstance(value, kinds) and not isinstance(value, bool)
    return isinstance(value, tp)


def _fit(value: Any, tp: Any) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Union:
        if value is None and type(None) in args:
            return None
        errors = []
        for alt in (a for a in args if a is not type(None)):
            try:
                return _fit(value, alt)
            except _Mismatch as err:
                errors.append(str(err))
        raise _Mismatch(errors[-1] if errors else f"got {value!r}")
    if origin is list or tp is list:
        item = args[0] if args else Any
        if isinstance(value, str):
            text = value.strip()
            # "[a, b]" is a YAML list ("{...}" a dict: no list); "a,b" two items; "a" one
            # item, not its letters
            value = (
                _yaml(text) if text.startswith(("[", "{")) else [v.strip() for v in text.split(",")]
            )
        if isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, list):
            value = [value]
        return [_fit(v, item) for v in value]
    if origin is tuple:
        if isinstance(value, str):
            value = _yaml(value)
        if not isinstance(value, (list, tuple)) or len(value) != len(args):
            raise _Mismatch(f"expected {len(args)} values, got {value!r}")
        return tuple(_fit(v, a) for v, a in zip(value, args))
    if origin is dict or tp is dict:
        if isinstance(value, str):
            value = _yaml(value)
        if not isinstance(value, dict):
            raise _Mismatch(f"got {value!r}")
        key, val = args if args else (Any, Any)
        return {_fit(k, key): _fit(v, val) for k, v in value.items()}
    if tp is Any:
        return value
    if tp is type(None):
        if value is None:
            return None
        raise _Mismatch(f"got {value!r}")
    if isinstance(value, str) and tp is not str:
        value = _number(value) if tp in (int, float) else _yaml(value)
    if tp is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if _is_a(value, tp):
        return value
    raise _Mismatch(f"got {value!r} ({type(value).__name__})")


def coerce(name: str, value: Any, annotation: str) -> Any:
    """``value`` read as parameter ``name`` of type ``annotation`` (see the module docstring).

    Raises
    ------
    ValueError
        When the value does not fit: the message names the parameter, the type in words
        and the value, e.g. ``MAX_FOLDS expects None or an integer, got 'two' (str)``.
    """
    tp = parse_annotation(annotation)
    try:
        return _fit(value, tp)
    except _Mismatch as err:
        raise ValueError(f"parameter {name} expects {describe(tp)} ({annotation}): {err}") from None


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


#: No value declared: the parameter's own value is used.
UNSET: Any = _Unset()


@dataclass(frozen=True)
class Parameter:
    """One notebook parameter, declared once in its paper's package.

    ``annotation`` and ``default`` are what the notebook's parameters cell shows (a test
    keeps them equal). While a run leaves the parameter at its default, ``quick`` is the
    value a QUICK run uses and ``full`` the value a FULL run uses (a default of ``None``
    that stands for "the paper's setting"); a value the run sets itself is always kept.
    """

    annotation: str
    default: Any
    quick: Any = UNSET
    full: Any = UNSET

    def resolve(self, name: str, value: Any, quick: bool) -> Any:
        """The value a run uses, given the value it set (already read by :func:`coerce`)."""
        if value != coerce(name, self.default, self.annotation):
            return value
        # the declared values are used as written: they are the package's, already of the type
        if quick and self.quick is not UNSET:
            return self.quick
        if self.full is not UNSET:
            return self.full
        return value
