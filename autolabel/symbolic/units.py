"""Unit words: normalization, and words that are never units."""

from __future__ import annotations

from fractions import Fraction


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_IRREGULAR = {
    "feet": "foot",
    "ft": "foot",
    "people": "person",
    "children": "child",
    "men": "man",
    "women": "woman",
    "teeth": "tooth",
    "mice": "mouse",
    "geese": "goose",
    "dollars": "dollar",
    "usd": "dollar",
    "$": "dollar",
    "degrees": "deg",
    "degree": "deg",
    "circ": "deg",
    "hrs": "hour",
    "hr": "hour",
    "mins": "minute",
    "min": "minute",
    "secs": "second",
    "sec": "second",
    "lbs": "pound",
    "lb": "pound",
    "oz": "ounce",
    "kms": "km",
    "mph": "mile/hour",
    "kph": "km/hour",
    "kmh": "km/hour",
    "km/h": "km/hour",
    "m/s": "m/second",
    "cms": "cm",
}

# Words that follow numbers but are grammar, not units: they end a computation.
NOT_UNITS = _words(
    """
    a an the and or but so then than is are was were be been being am it its this that these
    those there here of in on at to for from by with without into onto over under per times
    plus minus divided multiplied each every more less fewer left remaining total altogether
    which who whom whose what when where why how if as also because since thus hence therefore
    we you he she they i me him her us them my your his our their not no yes all both only
    just about around approximately roughly nearly almost exactly equals equal gives give get
    gets got makes make made becomes become is has have had will would can could should may
    might must do does did done dozen dozens hundred hundreds thousand thousands million
    millions billion billions trillion half halves quarter quarters percent score gross
    """
)

# Words before a number that tie it to something outside the computation.
CONNECTORS = _words(
    """
    of by times per than plus minus over into divided multiplied twice thrice double triple
    half quarter third fourth fifth squared cubed root sqrt power less more fewer exceeds
    """
)

# Words after a result that change its value ("1.5 million", "3 times 4", "8 to 10").
CONNECTORS_AFTER = _words(
    """
    times per plus minus over divided multiplied squared cubed to dozen dozens hundred
    hundreds thousand thousands million millions billion billions trillion percent
    """
)


def normalize_unit(word: str) -> str:
    """Lower-case and singularize a unit word: "Hours" -> "hour", "inches" -> "inch"."""
    w = word.strip().lower().strip(".")
    if not w:
        return w
    if "/" in w:
        return "/".join(normalize_unit(part) for part in w.split("/"))
    if " per " in w:
        return "/".join(normalize_unit(part) for part in w.split(" per "))
    if " " in w:
        return " ".join(normalize_unit(part) for part in w.split())
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if len(w) > 3 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith(("ches", "shes", "xes", "sses", "zes")):
        return w[:-2]
    if len(w) > 2 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


# Exact conversions, by definition, within one system of units per quantity: unit ->
# (quantity, factor to the quantity's base unit). Across systems ("1 kg = 2.2 pounds") people
# write approximations, days and weeks have working-day readings ("1 day = 8 hours") and coins
# are counted as things, so none of these is here: such claims stay undecided.
_F = Fraction
CONVERSIONS: dict[str, tuple[str, Fraction]] = {
    **{u: ("metric length", _F(1, 1000)) for u in ("mm", "millimeter", "millimetre")},
    **{u: ("metric length", _F(1, 100)) for u in ("cm", "centimeter", "centimetre")},
    **{u: ("metric length", _F(1)) for u in ("m", "meter", "metre")},
    **{u: ("metric length", _F(1000)) for u in ("km", "kilometer", "kilometre")},
    "inch": ("imperial length", _F(1)),
    "foot": ("imperial length", _F(12)),
    "yard": ("imperial length", _F(36)),
    "mile": ("imperial length", _F(63360)),
    "second": ("time", _F(1)),
    "minute": ("time", _F(60)),
    "hour": ("time", _F(3600)),
    **{u: ("metric mass", _F(1, 1000)) for u in ("mg", "milligram")},
    "gram": ("metric mass", _F(1)),
    **{u: ("metric mass", _F(1000)) for u in ("kg", "kilogram")},
    "ounce": ("imperial mass", _F(1)),
    "pound": ("imperial mass", _F(16)),
    **{u: ("metric volume", _F(1)) for u in ("ml", "milliliter", "millilitre")},
    **{u: ("metric volume", _F(1000)) for u in ("liter", "litre")},
    "teaspoon": ("us volume", _F(1, 48)),
    "tablespoon": ("us volume", _F(1, 16)),
    "cup": ("us volume", _F(1)),
    "pint": ("us volume", _F(2)),
    "quart": ("us volume", _F(4)),
    "gallon": ("us volume", _F(16)),
    # not coins: "120 pennies / 3 nickels per penny = 40 nickels" counts coins
    "cent": ("money", _F(1)),
    "dollar": ("money", _F(100)),
}


def conversion(unit: str) -> tuple[str, Fraction] | None:
    """(quantity, factor) of a unit name, or None when it is not a unit we convert."""
    return CONVERSIONS.get(unit)
