"""Camel-hump, glob and fuzzy matching rules of search (pure functions: no graph, no JVM)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdx.engine.search_match import (EXACT, HUMP, LOOSE_PREFIX, PREFIX, WORD, compile_pattern, fuzzy_budget, glob_to_regex,
                                     hump_regex, levenshtein, name_words, qualifier_regex)
from jdx.errors import UsageError

IDENT = st.from_regex(r"[A-Za-z_$][A-Za-z0-9_$]{0,24}", fullmatch=True)


@pytest.mark.parametrize("name, words", [
    ("HashMap", " Hash Map"),
    ("getAsJsonObject", " get As Json Object"),
    ("HttpURLConnection", " Http URL Connection"),
    ("URL", " URL"),
    ("MAX_VALUE", " MAX VALUE"),
    ("X509Certificate", " X509 Certificate"),
    ("Base64", " Base64"),
    ("utf8Decoder", " utf8 Decoder"),
    ("$jacocoInit", " jacoco Init"),
    ("Map$Entry", " Map Entry"),
    ("ÄpfelBaum", " Äpfel Baum"),
    ("_", ""),
])
def test_name_words(name, words):
    assert name_words(name) == words


@pytest.mark.parametrize("pattern, name, tier", [
    ("HashMap", "HashMap", EXACT),
    ("hashmap", "HashMap", EXACT),
    ("Hash", "HashMap", PREFIX),
    ("hashm", "HashMap", PREFIX),
    ("HMap", "HashMap", HUMP),
    ("HM", "HashMap", HUMP),
    ("HaMa", "HashMap", HUMP),
    ("gJson", "getJson", HUMP),
    ("gJson", "getAsJsonObject", HUMP),
    ("NPE", "NullPointerException", HUMP),
    ("URLConn", "URLConnection", PREFIX),
    ("UConn", "URLConnection", HUMP),
    ("URLConn", "HttpURLConnection", WORD),
    ("Map", "HashMap", WORD),
    ("MAX_V", "MAX_VALUE", PREFIX),
    ("MV", "MAX_VALUE", HUMP),
    ("CHM", "ConcurrentHashMap", HUMP),
    # a prefix whose capitals the pattern does not share ranks after the humps: `RBM` names three words
    ("RBM", "RBMap", PREFIX),
    ("RBM", "rbMonochrome", LOOSE_PREFIX),
    ("RBM", "RadioButtonMenu", HUMP),
    ("dEsc", "describe", LOOSE_PREFIX),
    ("uRLConn", "URLConnection", PREFIX),  # a lower-case pattern letter matches either case
])
def test_hump_tiers(pattern, name, tier):
    assert compile_pattern(pattern).tier(name) == tier


@pytest.mark.parametrize("pattern, name", [
    ("HMap", "hashmap"),  # a capital starts a word: `hashmap` has one word
    ("hMap", "HashSet"),
    ("gJson", "toJson"),  # the first pattern word must start some word: `g` starts none here
    ("Hmap", "HashMap"),  # lower-case letters continue a word; `Hm` is not a prefix of `Hash`
    ("NPEa", "NullPointerException"),  # `a` continues the word `E` started: it must follow `E` directly
    ("MapH", "HashMap"),  # words keep their order
])
def test_hump_rejects(pattern, name):
    assert compile_pattern(pattern).tier(name) is None


@given(IDENT)
@settings(max_examples=100, deadline=None)
def test_every_name_matches_itself_exactly(name):
    assert compile_pattern(name).tier(name) == EXACT


@given(IDENT)
@settings(max_examples=100, deadline=None)
def test_the_pattern_of_a_names_capitals_finds_it(name):
    capitals = "".join(c for c in name if c.isupper())
    if capitals:
        assert compile_pattern(capitals).tier(name) is not None, (capitals, name_words(name))


@given(IDENT)
@settings(max_examples=100, deadline=None)
def test_every_name_matches_its_own_humps_anchored(name):
    """The first letter of each word, in order, is an anchored camel-hump match (or better); words that
    start with a digit are skipped (a digit in a pattern continues a word, it never starts one)."""
    words = name_words(name).split()
    if words and words[0][0].isalpha():
        humps = "".join(w[0].upper() for w in words if w[0].isalpha())
        assert compile_pattern(humps).tier(name) in (EXACT, PREFIX, HUMP), (humps, words)


@given(IDENT)
@settings(max_examples=100, deadline=None)
def test_words_lose_no_letters_or_digits(name):
    assert name_words(name).replace(" ", "") == re.sub(r"[_$]", "", name)


@given(IDENT, IDENT)
@settings(max_examples=200, deadline=None)
def test_hump_regex_is_safe_for_any_text(pattern, name):
    """Any pattern compiles to a valid regex, and the anchored match implies the unanchored one."""
    anchored = re.fullmatch(hump_regex(pattern, True), name_words(name), re.DOTALL)
    anywhere = re.fullmatch(hump_regex(pattern, False), name_words(name), re.DOTALL)
    assert not anchored or anywhere


def test_regex_special_characters_are_literal():
    p = compile_pattern("a.b(c")
    assert p.qualifier == "a" and p.name == "b(c"
    assert p.tier("b(c") == EXACT and p.tier("bxc") is None


@pytest.mark.parametrize("glob, name, ok", [
    ("H*Map", "HashMap", True),
    ("H*Map", "HashMapper", False),
    ("*Http*Client", "AbstractHttpClient", True),
    ("h*map", "HashMap", True),  # all lower case: case-insensitive (smart case)
    ("H*map", "HashMap", False),  # a capital makes the glob case-sensitive
    ("Has?Map", "HashMap", True),
])
def test_glob(glob, name, ok):
    p = compile_pattern(glob)
    assert p.mode == "glob"
    assert (p.tier(name) is not None) is ok


def test_glob_to_regex_escapes():
    assert re.fullmatch(glob_to_regex("a.b*"), "a.bcd")
    assert not re.fullmatch(glob_to_regex("a.b*"), "axbcd")


@pytest.mark.parametrize("qualifier, owner, member, ok", [
    ("java.util", "java/util/HashMap", False, True),
    ("util", "java/util/HashMap", False, True),
    ("java.util", "java/util/concurrent/Foo", False, False),
    ("Map", "java/util/Map$Entry", False, True),
    ("HashMap", "java/util/HashMap", True, True),
    ("java.util.HashMap", "java/util/HashMap", True, True),
    ("ashMap", "java/util/HashMap", True, False),
])
def test_qualifier_regex(qualifier, owner, member, ok):
    assert bool(re.fullmatch(qualifier_regex(qualifier, member), owner)) is ok


def test_regex_mode_rejects_what_re2_cannot_run():
    with pytest.raises(UsageError):
        compile_pattern("(?<=a)b", regex=True)
    with pytest.raises(UsageError):
        compile_pattern("(a)\\1", regex=True)
    with pytest.raises(UsageError):
        compile_pattern("a[", regex=True)
    assert compile_pattern("^get[A-Z]$", regex=True).tier("getA") == HUMP


def _reference_levenshtein(a: str, b: str) -> int:
    if not a or not b:
        return len(a) + len(b)
    return min(_reference_levenshtein(a[1:], b) + 1, _reference_levenshtein(a, b[1:]) + 1,
               _reference_levenshtein(a[1:], b[1:]) + (a[0] != b[0]))


@given(st.text("abc", max_size=6), st.text("abc", max_size=6))
@settings(max_examples=200, deadline=None)
def test_levenshtein_matches_the_recursive_definition(a, b):
    assert levenshtein(a, b) == _reference_levenshtein(a, b) == levenshtein(b, a)


def test_fuzzy_budget_lets_a_transposition_through():
    assert levenshtein("hashmpa", "hashmap") == 2 <= fuzzy_budget("hashmpa")
    assert fuzzy_budget("abc") == 1 and fuzzy_budget("abcdefghij") == 3
    assert fuzzy_budget("ab") == 0 and fuzzy_budget("'#!") == 0


@pytest.mark.parametrize("pattern,name,tier", [
    ("naming strategy", "PropertyNamingStrategies", WORD),  # T32: the plural was not found
    ("strategies", "NamingStrategy", WORD),
    ("strategies", "Strategy", HUMP),
    ("thread factories", "ThreadFactory", HUMP),
    ("listeners", "EventListener", WORD),
    ("listeners", "Listener", HUMP),
    ("strategy", "Strategies", HUMP),
])
def test_a_word_names_its_singular_or_plural(pattern, name, tier):
    assert compile_pattern(pattern).tier(name) == tier


@pytest.mark.parametrize("pattern,name", [
    ("class", "Clash"),  # `ss`, `us`, `is` endings are no plurals
    ("status", "Stat"),
    ("strategies", "Strategyish"),  # the other number is a whole word, not a prefix
    ("listeners", "Listen"),
    ("Strategies", "Strategy"),  # a capital: a name as written, not a word
])
def test_the_other_number_is_a_whole_plain_word(pattern, name):
    assert compile_pattern(pattern).tier(name) is None


@pytest.mark.soak  # two JDK searches end to end; the tiers above are the unit checks (the soak runs it)
def test_a_search_in_words_finds_the_other_number(run_jdx):
    """`thread factories` finds the JDK's ThreadFactory first, as `thread factory` does."""
    plural = run_jdx("search", "thread factories", "--json", "--limit", "3")
    singular = run_jdx("search", "thread factory", "--json", "--limit", "3")
    assert plural.code == 0 and singular.code == 0, plural.err
    import json

    first = [m["ref"] for m in json.loads(plural.out)["result"]["matches"]]
    assert first[0] == "java.util.concurrent.ThreadFactory", first
    assert first == [m["ref"] for m in json.loads(singular.out)["result"]["matches"]]
