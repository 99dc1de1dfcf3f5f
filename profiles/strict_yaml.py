"""Read YAML that refuses a key given twice in one mapping.

PyYAML (like the YAML 1.1 it implements) keeps the last of two equal keys, so `hours: 72h`
followed by `hours: 720h` silently runs ten times longer. YAML 1.2 requires keys to be
unique, and Pulumi's own stack reader (Go yaml.v3) refuses duplicates, so trainstack
refuses them too, naming the key and both lines.
"""

from __future__ import annotations

from typing import Any

import yaml

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when PyYAML has it


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping gives the same key twice.

    Attributes:
        key: the repeated key, as written.
        line: 1-based line of the repeated key.
        first_line: 1-based line where the key was first given.
    """

    def __init__(self, key: str, line: int, first_line: int, mark: Any) -> None:
        super().__init__(None, None, f"duplicate key '{key}' (line {line}; first on line {first_line})", mark)
        self.key, self.line, self.first_line = key, line, first_line

    def __str__(self) -> str:
        return str(self.problem)


class _UniqueKeyLoader(_Base):  # type: ignore[misc, valid-type]
    """SafeLoader whose mappings refuse repeated keys (merge keys `<<` still work)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                if key in seen:
                    raise DuplicateKeyError(str(key), line, seen[key], key_node.start_mark)
                seen[key] = line
            except TypeError:  # an unhashable key: SafeConstructor reports it itself
                continue
        return super().construct_mapping(node, deep=deep)


def load(text: str) -> Any:
    """Parse one YAML document like `yaml.safe_load`, refusing a key given twice in a mapping.

    Raises:
        DuplicateKeyError: a mapping repeats a key (message: key and both lines).
        yaml.YAMLError: the text is not YAML.
    """
    return yaml.load(text, Loader=_UniqueKeyLoader)
