"""Field validators the spec models share, as `Annotated` metadata (pydantic's
`BeforeValidator`): `count: Annotated[int, NUMBER] = Field(...)` replaces one
`@field_validator` method per model that repeats the same rule."""

from __future__ import annotations

from pydantic import BeforeValidator

from profiles.spec.units import not_bool

# A number, never a YAML yes/no (`not_bool`: YAML reads `true` as a bool, Python counts it as 1).
NUMBER = BeforeValidator(not_bool)
