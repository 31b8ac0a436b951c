"""Rules as data: a frozen dataclass of options, set by name from strings.

Each family's rules (:class:`~guts.games.guts.rules.GutsRules`, ...) is a frozen dataclass
that mixes in :class:`RuleOptions`. The field's type hint says how a string is read:
``bool`` (yes/no), ``int``, a :class:`~enum.StrEnum` (its values), ``str``, and any of
those ``| None`` (``none``). ``option_docs`` says what each option means.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Rules(RuleOptions):
...     family = "example"
...     option_docs = {"ante": "chips each player antes", "cap": "most a deal costs"}
...     ante: int = 1
...     cap: int | None = None
...     def __post_init__(self) -> None:
...         self.check_options()
>>> Rules.from_options(None, {"cap": "20"}).to_options()
{'cap': '20'}
>>> Rules.from_options(None, {"ante": "lots"})
Traceback (most recent call last):
...
guts.errors.OptionError: ante: expected a whole number, not 'lots'
>>> Rules.from_options(None, {"antes": "2"})
Traceback (most recent call last):
...
guts.errors.OptionError: unknown example option 'antes'; allowed: ante, cap
>>> Rules().option_lines()
['  ante = 1    chips each player antes', '  cap = none  most a deal costs']
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from dataclasses import fields
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Self, Union, get_args, get_origin, get_type_hints

from guts.errors import OptionError

__all__ = [
    "NONE_WORDS",
    "RuleOptions",
    "allowed_values",
    "check_value",
    "dash",
    "format_value",
    "parse_value",
]

NONE_WORDS = ("none", "off", "")
"""What an optional option may be set to for None (no value)."""

YES_WORDS = ("yes", "y", "true", "on", "1")
NO_WORDS = ("no", "n", "false", "off", "0")


def dash(name: str) -> str:
    """A field's name as written on the command line: ``pot_limit`` -> ``pot-limit``."""
    return name.replace("_", "-")


def split_optional(hint: Any) -> tuple[Any, bool]:
    """``(T, True)`` for ``T | None``, else ``(hint, False)``."""
    if get_origin(hint) in (Union, types.UnionType):
        return next(a for a in get_args(hint) if a is not type(None)), True
    return hint, False


def _is_enum(inner: Any) -> bool:
    return isinstance(inner, type) and issubclass(inner, StrEnum)


def parse_value(key: str, text: str, hint: Any, none_words: tuple[str, ...] = NONE_WORDS) -> Any:
    """``text`` read as option ``key`` of type ``hint``; a bad value raises OptionError
    naming the option and what it allows."""
    inner, optional = split_optional(hint)
    value = text.strip().lower()
    if optional and value in none_words:
        return None
    if inner is bool:
        if value in YES_WORDS:
            return True
        if value in NO_WORDS:
            return False
        extra = ", auto" if optional else ""
        raise OptionError(f"{key}: expected yes or no{extra}, not {text!r}")
    if inner is int:
        try:
            return int(value)
        except ValueError:
            extra = " or none" if optional else ""
            raise OptionError(f"{key}: expected a whole number{extra}, not {text!r}") from None
    if _is_enum(inner):
        try:
            return inner(value)
        except ValueError:
            allowed = ", ".join(member.value for member in inner)
            raise OptionError(f"{key}: unknown value {text!r}; allowed: {allowed}") from None
    return text.strip()


def allowed_values(hint: Any) -> str:
    """What an option of type ``hint`` allows, for help screens: ``yes|no``, ``a|b``."""
    inner, optional = split_optional(hint)
    if inner is bool:
        text = "yes|no"
    elif inner is int:
        text = "a number"
    elif _is_enum(inner):
        text = "|".join(member.value for member in inner)
    else:
        text = "text"
    if optional:
        text += "|auto" if inner is bool else "|none"
    return text


def _expected(inner: Any) -> str:
    if inner is bool:
        return "yes or no"
    if inner is int:
        return "a whole number"
    if _is_enum(inner):
        return "one of " + ", ".join(member.value for member in inner)
    if inner is str:
        return "text"
    return str(getattr(inner, "__name__", inner))


def check_value(name: str, value: Any, hint: Any) -> None:
    """Raise OptionError unless ``value`` (of field ``name``) has the type ``hint``."""
    inner, optional = split_optional(hint)
    if value is None and optional:
        return
    if isinstance(value, inner) and (inner is bool or not isinstance(value, bool)):
        return
    raise OptionError(f"{dash(name)}: expected {_expected(inner)}, not {value!r}")


def format_value(value: Any) -> str:
    """An option's value as a string: ``yes``/``no``, ``none``, the number or the enum value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class RuleOptions:
    """Mixin for a frozen dataclass of options: set, list and describe them by name.

    A subclass sets ``family`` (named in the unknown-option error), ``option_docs`` (field
    name -> meaning) and, if it takes other words for "no value", ``none_words``; its
    ``__post_init__`` calls :meth:`check_options`.
    """

    __dataclass_fields__: ClassVar[dict[str, Any]]
    family: ClassVar[str] = "game"
    option_docs: ClassVar[Mapping[str, str]] = {}
    none_words: ClassVar[tuple[str, ...]] = NONE_WORDS

    @classmethod
    @cache
    def option_hints(cls) -> dict[str, Any]:
        """Each field's name -> its type hint (read once per rules class)."""
        return get_type_hints(cls)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """Every option's name as written on the command line (``pot-limit``)."""
        return tuple(dash(item.name) for item in fields(cls))

    @classmethod
    def option_help(cls) -> dict[str, tuple[str, str]]:
        """Each option's name -> (allowed values, meaning), for help screens."""
        hints = cls.option_hints()
        return {
            dash(item.name): (allowed_values(hints[item.name]), cls.option_docs[item.name])
            for item in fields(cls)
        }

    @classmethod
    def parse_option(cls, key: str, text: str) -> tuple[str, Any]:
        """The field name and value that option ``key`` set to ``text`` means."""
        name = key.strip().lower().replace("-", "_")
        if name not in cls.__dataclass_fields__:
            allowed = ", ".join(cls.option_names())
            raise OptionError(f"unknown {cls.family} option {key!r}; allowed: {allowed}")
        return name, parse_value(dash(name), str(text), cls.option_hints()[name], cls.none_words)

    @classmethod
    def from_options(cls, base: Self | None, options: Mapping[str, str]) -> Self:
        """``base`` (the defaults if None) with ``options`` (name -> string) applied."""
        changes = dict(cls.parse_option(key, text) for key, text in options.items())
        return dataclasses.replace(base if base is not None else cls(), **changes)

    @classmethod
    def from_preset(
        cls,
        presets: Mapping[str, tuple[Self, str]],
        name: str,
        options: Mapping[str, str] | None = None,
    ) -> Self:
        """The rules of preset ``name`` (``presets``: name -> (rules, description)) with
        ``options`` applied; an unknown name raises OptionError listing the presets."""
        try:
            rules = presets[name][0]
        except KeyError:
            allowed = ", ".join(presets)
            raise OptionError(f"unknown {cls.family} game {name!r}; presets: {allowed}") from None
        return cls.from_options(rules, options) if options else rules

    def check_options(self) -> None:
        """Raise OptionError unless every field has its declared type."""
        hints = self.option_hints()
        for item in fields(self):
            check_value(item.name, getattr(self, item.name), hints[item.name])

    def to_options(self, base: Self | None = None) -> dict[str, str]:
        """The options that differ from ``base`` (the defaults), as strings."""
        reference = base if base is not None else type(self)()
        return {
            dash(item.name): format_value(getattr(self, item.name))
            for item in fields(self)
            if getattr(self, item.name) != getattr(reference, item.name)
        }

    def options(self) -> dict[str, str]:
        """Every option and its value, as strings."""
        return {dash(item.name): format_value(getattr(self, item.name)) for item in fields(self)}

    def describe(self) -> str:
        """The rules in words, every option with its value (each family words its own
        rules text; this plain list is the fallback)."""
        return "\n".join(self.option_lines())

    def option_lines(self) -> list[str]:
        """One aligned line per option for the rules text: ``  name = value  meaning``."""
        lines = [f"{key} = {value}" for key, value in self.options().items()]
        width = max(len(line) for line in lines)
        docs = [self.option_docs[item.name] for item in fields(self)]
        return [f"  {line.ljust(width)}  {doc}" for line, doc in zip(lines, docs, strict=True)]
