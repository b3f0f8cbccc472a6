"""Every option of a rule set has a typed getter on `Rules` that agrees with
`to_dict()`, the getters and the stub are the options the core declares
(`Rules.options()`), and the package reads options through them, never
through ``rules.to_dict()[...]`` (docs/rules.md#custom-rule-sets)."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz
import ddz.types

PACKAGE = Path(ddz.__file__).resolve().parent
OPTIONS = ddz.Rules.options()

#: The stub's annotation of each option type (word options: `str`, or a
#: `Literal` alias of ddz.types holding exactly the words).
STUB_TYPES = {"bool": "bool", "int": "int", "str": "str", "king bombs": "list[dict[str, int]]"}


def stub_properties() -> dict[str, str]:
    """The properties of `Rules` in python/ddz/_ddz.pyi: name -> annotation."""
    tree = ast.parse((PACKAGE / "_ddz.pyi").read_text(encoding="utf-8"))
    rules = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    return {
        f.name: ast.unparse(f.returns)
        for f in rules.body
        if isinstance(f, ast.FunctionDef)
        and f.returns is not None
        and any(ast.unparse(d) == "property" for d in f.decorator_list)
    }


def test_the_stub_declares_one_typed_property_per_option() -> None:
    stub = stub_properties()
    assert sorted(stub) == sorted(o["name"] for o in OPTIONS)
    for o in OPTIONS:
        annotation = stub[o["name"]]
        if o["type"] == "word":
            if annotation != "str":
                alias = getattr(ddz.types, annotation)
                assert list(typing.get_args(alias)) == o["words"], o["name"]
        else:
            assert annotation == STUB_TYPES[o["type"]], o["name"]


def test_the_getters_are_the_declared_options() -> None:
    getters = {n for n, v in vars(ddz.Rules).items() if isinstance(v, property)}
    assert getters == {o["name"] for o in OPTIONS}
    for o in OPTIONS:
        assert vars(ddz.Rules)[o["name"]].__doc__ == o["doc"], o["name"]
    with pytest.raises(AttributeError):
        ddz.Rules().players = 4  # type: ignore[misc]


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_the_declaration_gives_each_preset_s_values(preset: str) -> None:
    rules = ddz.Rules(preset).to_dict()
    assert list(rules) == [o["name"] for o in OPTIONS]
    for o in OPTIONS:
        value = o["defaults"][preset]
        assert value == rules[o["name"]], (preset, o["name"])
        if o["words"] is not None:
            assert value in o["words"]
        if o["min"] is not None:
            assert o["min"] <= value <= o["max"]


def test_every_option_says_what_it_is_and_who_reads_it() -> None:
    flows = set(typing.get_args(ddz.types.Flow))
    for o in OPTIONS:
        assert o["doc"] and o["since"] in ddz._ddz.RECORD_FORMATS, o
        assert set(o["flows"]) <= flows, o
        assert o["flows"] or o["name"] == "preset", o  # a name only reads nothing
    kinds = {o["name"]: o for o in OPTIONS}
    assert kinds["kicks"]["flows"] == ["one_landlord"]
    assert kinds["trio_single"]["flows"] == list(typing.get_args(ddz.types.Flow))
    assert kinds["flow"]["words"] == list(typing.get_args(ddz.types.Flow))


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_every_option_has_a_getter_that_agrees_with_to_dict(preset: str) -> None:
    rules = ddz.Rules(preset)
    for name, value in rules.to_dict().items():
        got = getattr(rules, name)
        assert got == value and type(got) is type(value), (preset, name, got, value)


def test_getters_follow_custom_options() -> None:
    rules = ddz.Rules("classic", bidding="call", spring=False, doubling_bomb=4)
    assert (rules.bidding, rules.spring, rules.doubling_bomb) == ("call", False, 4)


def test_the_package_reads_no_option_through_to_dict() -> None:
    reads = [
        f"{p.relative_to(PACKAGE)}:{i}"
        for p in PACKAGE.rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"to_dict\(\)\s*(\[|\.get\()", line)
    ]
    assert not reads, reads


def fits(option: dict, value: object) -> bool:
    """Whether `value` is of the option's declared kind (its type alone;
    the rule checks may still refuse it)."""
    kind = option["type"]
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and option["min"] <= value <= option["max"]
        )
    if kind == "word":
        return value in option["words"]
    if kind == "str":
        return isinstance(value, str)
    return isinstance(value, list)  # king bombs: checked field by field below


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70_000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(sorted({w for o in OPTIONS for w in o["words"] or []}) + ["", "yes"]),
    st.lists(st.integers(0, 3), max_size=2),
)


# `preset` is the positional argument (and king bombs have their own fields).
@settings(max_examples=300, deadline=None)
@given(
    option=st.sampled_from([o for o in OPTIONS if o["type"] not in ("king bombs", "str")]),
    value=VALUES,
)
def test_a_value_not_of_the_declared_kind_is_refused_by_name(option: dict, value: object) -> None:
    name = option["name"]
    try:
        rules = ddz.Rules("classic", **{name: value})
    except ddz.RulesError as e:
        if not fits(option, value):
            assert e.option == name and e.text == repr(value), (name, value, str(e))
            if option["words"] is not None:
                assert e.allowed == tuple(option["words"])
        return
    assert fits(option, value), (name, value)
    assert getattr(rules, name) == value
