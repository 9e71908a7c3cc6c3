"""The first pairing pass of `diff` (spec §7.7, §3.3): a removed and an added member of one name are one changed
signature (FIELD_TYPE_CHANGED, PARAMETER_TYPE_CHANGED) when each is the other's one nearest candidate; a tie is
never paired."""

from __future__ import annotations

from collections import Counter, defaultdict

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import java_type, member_form, member_id, member_ref, param_list, parse_method_descriptor
from jdx.engine.diff.members import kind_of
from jdx.engine.diff.surface import Member


def _shape(m: Member) -> tuple:
    return (True, m.name, 0) if m.is_field else (False, m.name, len(parse_method_descriptor(m.descriptor)[0]))


def _params(m: Member) -> tuple[str, ...]:
    return parse_method_descriptor(m.descriptor)[0]


# a parameter kotlinc adds to a `suspend` function's descriptor: a suspend flip is the Kotlin pairing's
# (KOTLIN_SUSPEND_CHANGED), never parameters added
_HIDDEN_PARAMETERS = frozenset({"Lkotlin/coroutines/Continuation;"})


def _extra(short: tuple[str, ...], long: tuple[str, ...]) -> list[str] | None:
    """The parameters of `long` left over when `short` is an ordered subsequence of it (matched left to right), or
    None when it is not one."""
    extra, i = [], 0
    for p in long:
        if i < len(short) and short[i] == p:
            i += 1
        else:
            extra.append(p)
    return extra if i == len(short) else None


def _distance(r: Member, a: Member, buckets: dict[tuple, tuple[int, int]]) -> tuple[int, int] | None:
    """How far apart removal `r` and addition `a` of one name are as one changed signature, or None when they are
    no candidates: parameters added or removed (one list an ordered subsequence of the other: how many, unless only
    kotlinc's hidden ones), else, in a bucket of one removal and one addition of that name and arity, the parameters
    retyped (`_retyped_count`: a reorder retypes none; a field: 1, its bucket alone). At one distance parameters
    added or removed come first: a constructor that gained a leading parameter is no retyping of the overload of its
    new arity that lost its last one. So a same-arity reorder is nearer than any parameter added (doxia-core 1.12 ->
    2.0's `ParseException(Exception, String, String, int, int)` -> `(String, Exception, String, int, int)`, not
    `(Exception, String, int)` gaining two)."""
    if r.declared_in != a.declared_in or r.name != a.name or r.is_field != a.is_field:
        return None
    if buckets[_shape(r)] == (1, 1) and _shape(r) == _shape(a):
        return (1 if r.is_field else _retyped_count(_params(r), _params(a)), 1)
    if r.is_field:
        return None
    rp, ap = _params(r), _params(a)
    extra = _extra(rp, ap) if len(rp) < len(ap) else _extra(ap, rp) if len(ap) < len(rp) else None
    return (len(extra), 0) if extra and not set(extra) <= _HIDDEN_PARAMETERS else None


def _retyped_count(old: tuple[str, ...], new: tuple[str, ...]) -> int:
    """How many of `old`'s parameters `new` (of its arity) has no parameter of the type for, counted as a multiset:
    the same types reordered retype none."""
    left = Counter(old)
    left.subtract(new)
    return sum(n for n in left.values() if n > 0)


MAX_TIED = 3  # the candidates a removal left unpaired names


def pair_by_shape(removed: list[Member], added: list[Member]):
    """First pass: a removal and an addition of one name are one changed signature when each is the other's one
    nearest candidate (`_distance`): best matches first, so a constructor that gained a leading parameter pairs
    with the overload that holds its old parameters in order (jline 3.22 -> 3.26's `ExternalTerminal(String, ...,
    boolean)` -> `(TerminalProvider, String, ..., boolean)`), not with another one of its arity. Repeated over what
    is left until nothing pairs. A tie is never paired (spec §3.3: no guessing which replaced which), nor a bucket of
    one name and arity holding more than one of either by its arity alone."""
    found: list[Finding] = []
    removed, added = list(removed), list(added)
    while pairs := _nearest_pairs(removed, added):
        for r, a in pairs:
            found.append(_paired(r, a))
            removed.remove(r)
            added.remove(a)
    counts = _counts(removed, added)
    ambiguous = {}
    for r in removed:
        shape = _shape(r)
        rs, ads = counts[shape]
        tied = [a for a in added if _distance(r, a, counts) is not None]
        if ads and rs + ads > 2:
            what = "fields named" if shape[0] else f"{'constructors' if shape[1] == '<init>' else 'methods'} of arity"
            ambiguous[r.key] = f"not paired: {rs} removed and {ads} added {what} " + \
                               (shape[1] if shape[0] else f"{shape[2]} named {shape[1]}")
        elif tied:
            shown = ", ".join(param_list(a) for a in tied[:MAX_TIED]) + (" …" if len(tied) > MAX_TIED else "")
            ambiguous[r.key] = f"not paired: no one nearest among the added {shown}"
    return found, removed, added, ambiguous


def _counts(removed: list[Member], added: list[Member]) -> dict[tuple, tuple[int, int]]:
    """(removals, additions) per name and arity (`_shape`)."""
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for side, members in enumerate((removed, added)):
        for m in members:
            counts[_shape(m)][side] += 1
    return {shape: (rs, ads) for shape, (rs, ads) in counts.items()}


def _nearest_pairs(removed: list[Member], added: list[Member]) -> list[tuple[Member, Member]]:
    """The (removal, addition) pairs each of which is the other's one nearest candidate (`_distance`)."""
    counts = _counts(removed, added)
    named: dict[tuple, list[int]] = defaultdict(list)
    for j, a in enumerate(added):
        named[a.is_field, a.name].append(j)
    of_removal: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    of_addition: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for i, r in enumerate(removed):
        for j in named.get((r.is_field, r.name), ()):
            if (d := _distance(r, added[j], counts)) is not None:
                of_removal[i][j] = of_addition[j][i] = d
    return [(removed[i], added[j]) for i, near in of_removal.items()
            if (j := _nearest(near)) is not None and _nearest(of_addition[j]) == i]


def _nearest(candidates: dict[int, tuple[int, int]]) -> int | None:
    """The one candidate at the least distance, or None on a tie."""
    best = min(candidates.values())
    ties = [k for k, d in candidates.items() if d == best]
    return ties[0] if len(ties) == 1 else None


def _paired(r: Member, a: Member) -> Finding:
    if r.is_field:
        return Finding("FIELD_TYPE_CHANGED", member_ref(r), "field", member_form(r), member_form(a),
                       f"{java_type(r.descriptor)} -> {java_type(a.descriptor)}", member_id(r))
    return Finding("PARAMETER_TYPE_CHANGED", member_ref(r), kind_of(r), member_form(r), member_form(a),
                   _retyped(r, a), member_id(r))


def _retyped(r: Member, a: Member) -> str:
    """PARAMETER_TYPE_CHANGED's detail: the parameters old -> new, and the return type too when it changed with them
    (`(java.lang.StringBuffer): java.lang.StringBuffer -> (java.lang.StringBuilder): java.lang.StringBuilder`, as
    GENERIC_SIGNATURE_CHANGED writes a method): one finding for the retyped signature, spec §7.7. Parameters added
    or removed (one list inside the other) are named: `; parameter added: org.x.Provider`; the same types in another
    order say `; parameters reordered`."""
    if r.returns == a.returns:
        detail = f"{param_list(r)} -> {param_list(a)}"
    else:
        detail = f"{param_list(r)}: {java_type(r.returns)} -> {param_list(a)}: {java_type(a.returns)}"
    rp, ap = _params(r), _params(a)
    if len(rp) == len(ap):
        return detail + ("; parameters reordered" if rp != ap and not _retyped_count(rp, ap) else "")
    extra = _extra(rp, ap) if len(rp) < len(ap) else _extra(ap, rp)
    how = "added" if len(rp) < len(ap) else "removed"
    return f"{detail}; parameter{'s' if len(extra) > 1 else ''} {how}: {', '.join(map(java_type, extra))}"
