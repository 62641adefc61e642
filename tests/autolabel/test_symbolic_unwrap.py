"""tokens.Unwrapper: the one brace tracker the math and prose claim finders share."""

from autolabel.symbolic.tokens import Unwrapper, tokenize


def unwrapped(text: str, commands: tuple[str, ...] = ("boxed",)) -> str:
    tokens = [t for t in tokenize(text, "math") if t.kind != "SPACE"]
    braces = Unwrapper(commands)
    out, i = [], 0
    while i < len(tokens):
        if braces.opens(tokens, i):
            i += 2
            continue
        if braces.keeps(tokens[i]):
            out.append(tokens[i].text)
        i += 1
    return "".join(out)


def test_an_unwrapped_group_loses_its_command_and_own_braces_only() -> None:
    assert unwrapped(r"x=\boxed{\frac{1}{2}}") == r"x=\frac{1}{2}"
    assert unwrapped(r"\boxed{\boxed{3}}+{4}") == "3+{4}"
    assert unwrapped(r"\mathbf{v}=\boxed{1}", ("boxed", "mathbf")) == "v=1"


def test_other_commands_and_a_command_without_a_group_are_kept() -> None:
    assert unwrapped(r"\sqrt{4}=2") == r"\sqrt{4}=2"
    assert unwrapped(r"2\boxed") == r"2\boxed"
    # An unclosed group: its content stays, nothing else is dropped.
    assert unwrapped(r"\boxed{3") == "3"
