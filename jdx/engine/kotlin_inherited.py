"""Inherited Kotlin declarations as the queried class sees them (spec §9.3 step 7, jdx.kotlin.substitute): the
supertype chain's substitutions (`InheritedView`), DefaultImpls forwarders and kotlinc's bridges of special members
folded into the declaration they stand for; one graph's decoded classes kept per process (`_Chains`)."""

from __future__ import annotations

import json
import weakref
from dataclasses import replace

from jdx.engine import descriptors
from jdx.engine.kotlin_java_types import java_class, written_type
from jdx.engine.kotlin_names import built_in_names, may_clash, may_shadow, qualify, qualify_class, shadowed
from jdx.engine.kotlin_view import kotlin_entry, member_kotlin, member_ref
from jdx.engine.refs import format_type
from jdx.graph_schema import queries_kotlin as q

FORWARDER = "forwarder"  # the role of a DefaultImpls forwarder: a class's copy of an interface's default body
BRIDGE = "bridge"  # the role of kotlinc's bridge of a special member (`contains(String)` of a `List<String>`)
_ACC_BRIDGE, _ACC_STATIC = 0x40, 0x8
# the JVM names of the built-in members kotlinc maps to other names (JvmAbi's BuiltinMethodsWithDifferentJvmName and
# BuiltinSpecialProperties in the Kotlin repository): a bridge of that name stands for the Kotlin declaration
_SPECIAL_FUNCTIONS = {"charAt": "get", "remove": "removeAt", "byteValue": "toByte", "shortValue": "toShort",
                      "intValue": "toInt", "longValue": "toLong", "floatValue": "toFloat", "doubleValue": "toDouble"}
_SPECIAL_PROPERTIES = {"size": "size", "length": "length", "keySet": "keys", "values": "values",
                       "entrySet": "entries", "ordinal": "ordinal", "name": "name"}
_DEFAULT_IMPLS = "$DefaultImpls"
_CHAINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_CHAIN_ENTRIES = 4096  # decoded classes a process keeps per graph before starting over


class _Chains:
    """One graph's Kotlin classes decoded from their `@kotlin.Metadata` and the Java classes of their chains read from
    their generic signatures (once per process: a graph never changes while open), the substitutions of each queried
    class's supertype chain, what each inherited declaration reads as from each class, and the bridges each folds:
    a warm `members` decodes and renders nothing again."""

    def __init__(self, store):
        self.store = weakref.ref(store)
        self.meta: dict[str, object] = {}
        self.unreadable: set[str] = set()  # Kotlin classes whose metadata failed: never read as Java
        self.java: dict[str, object] = {}  # a Java class of a chain as Kotlin sees its supertypes (or None)
        self.java_rows: dict[str, dict] = {}  # the supertype rows (signature, super, interfaces) of queried classes
        self.chains: dict[str, dict] = {}
        self.decls: dict[str, dict] = {}
        self.seen: dict[tuple[str, str], tuple | None] = {}
        self.default_names: dict[str, frozenset[str]] = {}
        self.forwarded: dict[tuple, dict[str, str]] = {}
        self.qualified: dict[tuple, str | None] = {}
        self.package_names: dict[str, frozenset[str]] = {}
        self.defaults: dict[str, tuple | None] = {}

    def klass(self, cid: str):
        from jdx.kotlin import MetadataError, decode_metadata

        if cid in self.meta:
            meta = self.meta[cid]
            return meta.klass if meta is not None else None
        if len(self.meta) > _CHAIN_ENTRIES:
            self.__init__(self.store())
        self.meta[cid] = None  # a class that names itself as its outer ends here
        store = self.store()
        rows = store.rows(q.KOTLIN_METADATA_OF, {"id": cid}) if store is not None else []
        raw = rows[0]["kotlin"] if rows else None
        meta = None
        if raw:
            simple = cid.rsplit("/", 1)[-1]
            outer_id = cid.rsplit("$", 1)[0] if "$" in simple else None
            if outer_id is not None:
                self.klass(outer_id)
            try:
                meta = decode_metadata(raw, self.meta.get(outer_id), lambdas=False)
            except MetadataError:
                meta = None  # the index warned (KOTLIN_METADATA_*): the class keeps its declared text
                self.unreadable.add(cid)
        self.meta[cid] = meta
        return meta.klass if meta is not None else None

    def chain(self, target: str) -> dict:
        from jdx.graph_schema.queries import SUPERTYPES_CLOSURE
        from jdx.kotlin.substitute import chain_substitutions

        got = self.chains.get(target)
        if got is None:
            store = self.store()
            if store is not None and target not in self.java_rows:  # a supertype's are among those of a subclass
                # the rows `members` has just walked (memoised by the store)
                self.java_rows.update((r["id"], r) for r in store.rows_cached(SUPERTYPES_CLOSURE, {"id": target}))
            got = self.chains[target] = chain_substitutions(target, self.chain_class)
        return got

    def chain_class(self, cid: str):
        """A class of a supertype chain: Kotlin from its metadata, Java from its generic signature; none of the Java
        platform's, which no Kotlin class is above."""
        if cid.startswith(_PLATFORM):
            return None
        k = self.klass(cid)
        if k is not None or cid in self.unreadable:
            return k
        if cid not in self.java:
            row = self.java_rows.get(cid)
            self.java[cid] = None if row is None or row.get("external") else java_class(row)
        return self.java[cid]

    def decl(self, owner: str, kind: str, signature: str):
        """The decoded function or property of `owner` whose rendering is the row's signature."""
        from jdx.kotlin.render import render_constructor, render_function, render_property

        table = self.decls.get(owner)
        if table is None:
            table = self.decls[owner] = {}
            k = self.klass(owner)
            meta = self.meta.get(owner)
            container = k if k is not None else getattr(meta, "package", None)  # a file facade's: its package
            if container is not None:
                iface = k is not None and k.kind == "interface"
                for c in getattr(container, "constructors", ()):
                    table.setdefault(("constructor", render_constructor(c)), c)
                for f in container.functions:
                    table.setdefault(("function", render_function(f, iface)), f)
                for p in container.properties:
                    table.setdefault(("property", render_property(p, iface)), p)
        return table.get((kind, signature))

    def inherited_defaults(self, row: dict) -> tuple | None:
        """(the function of a class's declaration row with the default values its parameters inherit, the supertype
        declaring the first of them) for an override: Kotlin forbids an override to declare a default value and gives
        its parameters those of the functions it overrides (kotlin-reflect's `isOptional`); the metadata flags them on
        the overridden function only. Overridden: a supertype's function of the same name and receiver whose
        parameters, erased as the class sees them, are the override's. None for any other row."""
        if row["kind"] != "function":
            return None
        if row["id"] not in self.defaults:
            self.defaults[row["id"]] = self._inherited_defaults(row["owner"], self.decl(row["owner"], "function",
                                                                                        row["signature"]))
        return self.defaults[row["id"]]

    def _inherited_defaults(self, owner: str, decl) -> tuple | None:
        from jdx.kotlin.substitute import erased_parameters

        k = self.klass(owner)
        if k is None or decl is None or decl.visibility == "private" or not decl.parameters:
            return None
        own = erased_parameters(decl, _bounds(k))
        if own is None:
            return None
        own = tuple(own)
        inherited: set[int] = set()
        source = None
        for cid, sigma in self.chain(owner).items():
            sup = self.klass(cid) if cid != owner else None
            for f in sup.functions if sup is not None else ():
                if f.name == decl.name and len(f.parameters) == len(decl.parameters) and f.visibility != "private" \
                        and (f.receiver is None) == (decl.receiver is None) \
                        and any(p.declares_default for p in f.parameters) and _erased(f, sigma, _bounds(sup)) == own:
                    found = {i for i, p in enumerate(f.parameters) if p.declares_default} - inherited
                    source = source or (cid if found else None)
                    inherited |= found
        inherited -= {i for i, p in enumerate(decl.parameters) if p.declares_default}
        if not inherited:
            return None
        return replace(decl, parameters=[replace(p, declares_default=True) if i in inherited else p
                                         for i, p in enumerate(decl.parameters)]), format_type(source)

    def names_in(self, package: str) -> frozenset[str]:
        """The simple names of a package's top-level classes (internal spelling), the built-in ones included."""
        got = self.package_names.get(package)
        if got is None:  # one scan for it and Kotlin's default-import packages, which every line may be read in
            from jdx.engine.kotlin_names import DEFAULT_PACKAGES
            from jdx.graph_schema.queries_search import TYPE_NAMES_IN_PACKAGES

            store = self.store()
            wanted = sorted({package, *DEFAULT_PACKAGES} - self.package_names.keys())
            dotted = [p.replace("/", ".") for p in wanted]
            rows = store.rows_cached(TYPE_NAMES_IN_PACKAGES, {"packages": dotted}) if store else []
            found: dict[str, set[str]] = {}
            for r in rows:
                found.setdefault(r["package"], set()).add(r["name"])
            for p, d in zip(wanted, dotted):
                self.package_names[p] = frozenset(found.get(d, ())) | built_in_names(p)
            got = self.package_names[package]
        return got

    def qualified_text(self, row: dict, context: tuple[str, ...] = (), defaults: bool = True) -> str | None:
        """The row's declaration with clashing class names, and those its package reads as other classes, qualified
        (kotlin_names), and with `defaults` a parameter's default value inherited (`inherited_defaults`: `= ...`),
        None when none are. A class header row too (its constructor's parameters, its supertypes)."""
        if row["kind"] not in ("function", "property", "constructor", "class"):
            return None
        context = (row["owner"], *context)
        key = (row["id"], context, defaults)
        if key not in self.qualified:
            package = row["owner"].rpartition("/")[0]

            def also(names):
                return shadowed(names, package, self.names_in)

            if row["kind"] == "class":  # rendered as kotlin_shard renders it, from the qualified class
                from jdx.kotlin.render import render_class_header

                k = self.klass(row["owner"])
                shown = qualify_class(k, context, also) if k is not None else None
                self.qualified[key] = render_class_header(shown) if shown is not None else None
                return self.qualified[key]
            detail = json.loads(row["detail"] or "{}")
            inherited = (self.inherited_defaults(row) or (None,))[0] if defaults else None
            wanted = may_clash(detail, context) or may_shadow(detail, package, self.names_in)
            decl = inherited or (self.decl(row["owner"], row["kind"], row["signature"]) if wanted else None)
            shown = qualify(decl, context, also) if wanted and decl is not None else None
            self.qualified[key] = self.render(row, shown or inherited)
        return self.qualified[key]

    def render(self, row: dict, decl) -> str | None:
        """A declaration of the row's owner as Kotlin text (None for None)."""
        from jdx.kotlin.render import render_constructor, render_function, render_property

        if decl is None:
            return None
        k = self.klass(row["owner"])
        iface = k is not None and k.kind == "interface"
        if row["kind"] == "function":
            return render_function(decl, iface)
        return render_property(decl, iface) if row["kind"] == "property" else render_constructor(decl)

    def seen_from(self, target: str, row: dict, args: dict | None = None, args_key: tuple = ()) -> tuple | None:
        """(text, detail JSON, substitution) of a declaration as `target` sees it, `args` (Kotlin types) bound to
        `target`'s own type parameters; None when it reads as declared."""
        key = (target, row["id"], args_key)
        if key in self.seen:
            return self.seen[key]
        self.seen[key] = got = self._seen_from(target, row, args or {})
        return got

    def _seen_from(self, target: str, row: dict, args: dict) -> tuple | None:
        from jdx.kotlin import substitute as sub
        from jdx.kotlin.model import KmFunction
        from jdx.kotlin.render import render_constructor, render_function, render_property, render_type

        sigma = self.chain(target).get(row["owner"])
        if sigma and args:  # the chain's arguments are in terms of target's own parameters
            sigma = {k: sub.substitute_type(v, args) for k, v in sigma.items()}
        inherited = self.inherited_defaults(row) if sigma else None
        decl = inherited[0] if inherited else self.decl(row["owner"], row["kind"], row["signature"]) if sigma else None
        if decl is None:
            return None
        if row["kind"] == "constructor":
            used = {k: v for k, v in sigma.items() if k in _mentioned(decl) and not (
                v.kind == "typeparam" and v.classifier == k and not v.nullable)}
        else:
            decl, used = _capture_free(decl, sigma)
        if not used:
            return None
        iface = self.klass(row["owner"]).kind == "interface"
        if row["kind"] == "function":
            decl = sub.substitute_function(decl, used)
            text = render_function(decl, iface)
        elif row["kind"] == "property":
            decl = sub.substitute_property(decl, used)
            text = render_property(decl, iface)
        else:
            decl = replace(decl, parameters=sub.substitute_function(KmFunction("<init>", parameters=decl.parameters),
                                                                    used).parameters)
            text = render_constructor(decl)
        if text == row["signature"]:
            return None
        text = self.render(row, qualify(decl, (row["owner"], target))) or text
        detail = sub.detail_types(decl if row["kind"] != "constructor" else KmFunction(
            "<init>", parameters=decl.parameters), json.loads(row["detail"] or "{}"))
        names = [p.name for p in getattr(decl, "type_parameters", ())]
        if isinstance(detail.get("type_parameters"), list) and len(detail["type_parameters"]) == len(names):
            detail["type_parameters"] = [{**d, "name": n} for d, n in zip(detail["type_parameters"], names)]
        return text, json.dumps(detail), {k: render_type(v, qualified=True) for k, v in sorted(used.items())}

    def interface_names(self, target: str) -> frozenset[str]:
        """The JVM names of the functions and accessors the Kotlin interfaces of `target`'s chain declare."""
        got = self.default_names.get(target)
        if got is None:
            names = set()
            for cid in self.chain(target):
                k = self.klass(cid)
                if k is not None and k.kind == "interface":
                    names |= {f.jvm[0] for f in k.functions if f.jvm}
                    names |= {sig[0] for p in k.properties for sig in (p.jvm_getter, p.jvm_setter) if sig}
            got = self.default_names[target] = frozenset(names)
        return got


_PLATFORM = ("java/", "javax/", "jdk/", "sun/")


def _mentioned(decl) -> set[str]:
    """The type parameter names a function's, property's or constructor's types mention."""
    from jdx.kotlin.substitute import type_parameter_names

    types = [getattr(decl, "receiver", None), getattr(decl, "return_type", None),
             *getattr(decl, "context_receivers", ()), *(b for p in getattr(decl, "type_parameters", ())
                                                        for b in p.upper_bounds)]
    types += [t for p in getattr(decl, "parameters", ()) for t in (p.type, p.vararg_element)]
    out: set[str] = set()
    for t in types:
        type_parameter_names(t, out)
    return out


def _capture_free(decl, sigma: dict):
    """(decl, the part of sigma that applies to it): a declaration's own type parameter an argument would capture
    (`fun <B> with(b: B, a: A)` seen with A -> B) is renamed first (`fun <B1> with(b: B1, a: B)`), as the JVM view
    renames (descriptors.substitute)."""
    from jdx.kotlin.model import KmFunction, KmType
    from jdx.kotlin.substitute import applicable, substitute_function, substitute_property, type_parameter_names

    own = [p.name for p in decl.type_parameters]
    mentioned = _mentioned(decl)
    brought: set[str] = set()
    for k in mentioned - set(own):
        if k in sigma:
            type_parameter_names(sigma[k], brought)
    clash = set(own) & brought
    if clash:
        taken = mentioned | brought | set(own)
        rename = {}
        for name in own:
            if name in clash:
                i = 1
                while f"{name}{i}" in taken:
                    i += 1
                taken.add(f"{name}{i}")
                rename[name] = KmType(f"{name}{i}", "typeparam")
        decl = (substitute_function if isinstance(decl, KmFunction) else substitute_property)(decl, rename)
        decl = replace(decl, type_parameters=[replace(p, name=rename[p.name].classifier) if p.name in rename else p
                                              for p in decl.type_parameters])
    return decl, applicable(decl, sigma)


def _bounds(k) -> dict:
    """A class's type parameters' first bounds by name, as substitute.erased_parameters takes them."""
    return {p.name: p.upper_bounds[0] if p.upper_bounds else None for p in k.type_parameters}


def _erased(f, sigma: dict, bounds: dict) -> tuple[str, ...] | None:
    """The JVM parameters of `f` with `sigma` applied (substitute.erased_parameters)."""
    from jdx.kotlin.substitute import applicable, erased_parameters, substitute_function

    got = erased_parameters(substitute_function(f, applicable(f, sigma)), bounds)
    return None if got is None else tuple(got)


def _shape(member_id: str) -> str:
    """`a/B#contains(Ljava/lang/Object;)Z` -> `contains(Ljava/lang/Object;)`: what an override keeps."""
    rest = member_id.split("#", 1)[1]
    return rest[: rest.index(")") + 1]


def _chains(store) -> _Chains:
    got = _CHAINS.get(store)
    if got is None:
        got = _CHAINS[store] = _Chains(store)
    return got


def mark_inherited_defaults(store, row: dict, entry: dict) -> None:
    """An entry (kotlin_view.kotlin_entry) of an override whose parameters inherit default values
    (`_Chains.inherited_defaults`, which its text prints `= ...`) marked as they are: `default` on each in `detail`,
    as a declared one's, and `defaults inherited from okio.FileSystem`."""
    got = _chains(store).inherited_defaults(row)
    if got is None:
        return
    decl, source = got
    params = entry["detail"].get("parameters")
    if isinstance(params, list) and len(params) == len(decl.parameters):
        entry["detail"]["parameters"] = [{**d, "default": True} if p.declares_default else d
                                         for d, p in zip(params, decl.parameters)]
    entry["markers"] = entry["markers"] + [f"defaults inherited from {source}"]


def companion_twin(row: dict, member_id: str, target: str) -> bool:
    """Whether a supertype's member is its companion's declaration (`row`, the declaration a static JVM member compiles
    from: a @JvmStatic copy, a `const val` or @JvmField field in the supertype): Java calls it through the subclass,
    Kotlin only through the supertype (`Tool.doMain`, never `Compiler.doMain`), so the Kotlin view of `target` (the
    subclass) does not inherit it."""
    owner = member_id.split("#", 1)[0]
    return owner != target and row["owner"].startswith(owner + "$")


def written_arguments(store, result: dict) -> dict:
    """The type arguments a `members` query gave (`Box<String>`: `type_arguments`) as Kotlin types, by parameter name;
    a wildcard's capture and a type with no Kotlin text are left out: that parameter reads as declared."""
    from jdx.engine.resolve import resolve_applied_type

    given = result.get("type_arguments")
    if not given:
        return {}
    _, env = resolve_applied_type(store, f"{result['type']}<{', '.join(given.values())}>")
    return {name: t for name, sig in env.items() if (t := written_type(sig)) is not None}


class InheritedView:
    """The Kotlin declarations a `members` answer shows, as the queried class `target` (a JVM internal name) sees
    them; `args` binds the class's own type parameters (`members 'Box<String>'`: T -> String)."""

    def __init__(self, store, target: str, args: dict | None = None):
        from jdx.kotlin.render import render_type

        self.store = store
        self.target = target
        self.cache = _chains(store)
        self.args = args or {}
        self.args_key = tuple((k, render_type(v, qualified=True)) for k, v in sorted(self.args.items()))

    def entry(self, row: dict, access: dict[str, int] | None = None) -> dict:
        """The `kotlin` object of a member: the declaration with the member's role; an inherited one with its
        supertype's type parameters substituted (`text` and `detail` as the class sees it, `declared` the text as
        declared, `substitution` parameter -> argument); `access` as kotlin_view.kotlin_entry takes it."""
        entry = {**kotlin_entry(row, access), "role": row["role"]}
        entry["text"] = self.cache.qualified_text(row, (self.target,)) or entry["text"]
        mark_inherited_defaults(self.store, row, entry)
        if row["role"] == FORWARDER:
            entry["markers"] = entry["markers"] + [f"from {format_type(row['owner'])} via DefaultImpls"]
            entry["forwards_to"] = member_ref(row["forwards_to"])
        if (row["owner"] != self.target or self.args) and row["kind"] in ("function", "property", "constructor"):
            shown = self.cache.seen_from(self.target, row, self.args, self.args_key)
            if shown is not None:
                text, detail, used = shown
                entry.update(text=text, detail=json.loads(detail), declared=row["signature"], substitution=used)
        return entry

    def forwarders(self, items: list[dict], ids: list[str], found: dict) -> dict[str, list[dict]]:
        """JVM member id -> the interface declaration a DefaultImpls forwarder stands for (role `forwarder`): a method
        of a Kotlin class of the chain with no declaration of its own whose body calls the same-named method of an
        interface's `$DefaultImpls` (kotlinc 1.3 without -Xjvm-default)."""
        names = None
        candidates = []
        for item, mid in zip(items, ids):
            if mid in found or item["kind"] != "method" or item["static"]:
                continue
            if names is None:
                names = self.cache.interface_names(self.target)
            if item["name"] not in names:
                continue
            owner = mid.split("#", 1)[0]
            k = self.cache.klass(owner) if owner in self.cache.chain(self.target) else None
            if k is not None and k.kind != "interface":
                candidates.append(mid)
        if not candidates:
            return {}
        key = (self.target, tuple(candidates))
        targets = self.cache.forwarded.get(key)
        if targets is None:
            targets = self.cache.forwarded[key] = self._targets(candidates)
        declaring = {mid: self._declaring(iface_member) for mid, (iface_member, _) in targets.items()}
        rows = member_kotlin(self.store, sorted({m for ms in declaring.values() for m in ms})) if targets else {}
        out: dict[str, list[dict]] = {}
        for mid, (_, through) in targets.items():
            row = next((r for m in declaring[mid] for r in rows.get(m, ()) if r["owner"] == m.split("#", 1)[0]
                        and r["role"] in ("method", "getter", "setter")), None)
            if row is not None:
                out[mid] = [{**row, "member": mid, "role": FORWARDER, "forwards_to": through}]
        return out

    def _declaring(self, iface_member: str) -> list[str]:
        """The interface method a forwarder stands for, then the same method of the interface's superinterfaces,
        nearest first: a sub-interface's DefaultImpls holds kotlinc's copy of an inherited default body (it calls
        the superinterface's), which the sub-interface's metadata does not declare."""
        owner, _, rest = iface_member.partition("#")
        return [f"{cid}#{rest}" for cid in self.cache.chain(owner)
                if (k := self.cache.klass(cid)) is not None and k.kind == "interface"]

    def bridges(self, items: list[dict], ids: list[str], found: dict) -> dict[str, list[dict]]:
        """JVM member id -> the Kotlin declaration a bridge stands for (role `bridge`): an ACC_BRIDGE method of a Kotlin
        class of the chain with no declaration of its own, whose name (or the built-in's JVM name) and parameters
        are a Kotlin declaration's of that class or its supertypes, as declared (`contains(Object)`), as the class sees
        them (`contains(String)` of a `List<String>`), or, in the class declaring it, erased to Object (the final
        `contains(Object)` beside an override `contains(element: String)`). A bridge of a declaration the listing
        shows overridden folds into the override: kotlin-reflect lists each declaration once."""
        chain = self.cache.chain(self.target)
        candidates = [mid for item, mid in zip(items, ids) if mid not in found and item["kind"] == "method"
                      and not item["static"] and self.cache.klass(mid.split("#", 1)[0]) is not None
                      and mid.split("#", 1)[0] in chain]
        if not candidates:
            return {}
        key = (self.target, BRIDGE, tuple(candidates))
        bridged = self.cache.forwarded.get(key)  # the graph never changes while open: a warm answer queries nothing
        if bridged is None:
            bridged = self.cache.forwarded[key] = {}
            targets = self._bridged(candidates)
            members = sorted({t[0] for t in targets.values() if t[0] is not None})
            rows = member_kotlin(self.store, members) if members else {}
            for mid, (decl_member, shapes) in targets.items():
                owner = decl_member.split("#", 1)[0] if decl_member else None
                row = next((r for r in rows.get(decl_member, ()) if r["owner"] == owner
                            and r["role"] in ("method", "getter")), None)
                bridged[mid] = ([{**row, "member": mid, "role": BRIDGE}] if row is not None else None, shapes)
        overrides = {_shape(mid): rows for mid, rows in found.items() if rows[0]["role"] in ("method", "getter")}
        out = {mid: next((overrides[s] for s in shapes if s in overrides), rows)
               for mid, (rows, shapes) in bridged.items()}
        return {mid: rows for mid, rows in out.items() if rows is not None}

    def _bridged(self, candidates: list[str]) -> dict[str, tuple[str | None, frozenset[str]]]:
        """Bridge id -> (the JVM member of the Kotlin declaration it stands for, None when no class of the chain
        declares it; the shapes, `name(params)`, of the JVM member of an override of it)."""
        from jdx.graph_schema.queries import METHODS_OF_TYPES

        matched = {mid: got for mid in candidates if (got := self._bridged_one(mid)) is not None}
        if not matched:
            return {}
        owners = sorted({mid.split("#", 1)[0] for mid in matched})
        flags = {f"{r['owner']}#{r['name']}{r['descriptor']}": r["access"]
                 for r in self.store.rows_cached(METHODS_OF_TYPES, {"ids": owners})}
        return {mid: got for mid, got in matched.items()
                if (flags.get(mid) or 0) & (_ACC_BRIDGE | _ACC_STATIC) == _ACC_BRIDGE}

    def _bridged_one(self, mid: str) -> tuple[str | None, frozenset[str]] | None:
        owner, _, rest = mid.partition("#")
        name, desc = rest[: rest.index("(")], rest[rest.index("("):]
        params = tuple(descriptors.parse_method_descriptor(desc)[0])
        names = {name, _SPECIAL_FUNCTIONS.get(name)}
        prop = _SPECIAL_PROPERTIES.get(name) if not params else None
        for cid, sigma in self.cache.chain(owner).items():  # the class itself first, then its supertypes
            k = self.cache.klass(cid)
            if k is None:
                continue
            getter = next((p.jvm_getter for p in k.properties if p.name == prop and p.jvm_getter), None)
            if getter is not None:
                return f"{cid}#{getter[0]}{getter[1]}", frozenset({getter[0] + "()"})
            bounds = _bounds(k)
            exact, loose = None, []
            for f in k.functions:
                if f.jvm is None or (f.jvm[0] not in names and f.name not in names):
                    continue
                declared = tuple(descriptors.parse_method_descriptor(f.jvm[1])[0])
                if len(declared) != len(params):
                    continue
                if declared == params or _erased(f, sigma, bounds) == params:
                    exact = f
                    break
                if cid == owner and f.jvm[0] == name and all(b in (a, "Ljava/lang/Object;")
                                                            for a, b in zip(declared, params)):
                    loose.append(f)
            f = exact or (loose[0] if len(loose) == 1 else None)
            if f is not None:  # an override has its declared parameters, or them as a class of the chain sees them
                seen = self.cache.chain(self.target).get(cid, sigma)
                shapes = {tuple(descriptors.parse_method_descriptor(f.jvm[1])[0]), _erased(f, sigma, bounds),
                          _erased(f, seen, bounds)}
                shown = frozenset(f"{f.jvm[0]}({''.join(p)})" for p in shapes if p is not None)
                return f"{cid}#{f.jvm[0]}{f.jvm[1]}", shown
        if prop is not None:  # a built-in's bridge no class of the chain declares: only an override can claim it
            return None, frozenset({f"get{prop[0].upper()}{prop[1:]}()"})
        if name in _SPECIAL_FUNCTIONS:
            return None, frozenset({f"{_SPECIAL_FUNCTIONS[name]}({''.join(params)})"})
        return None

    def _targets(self, candidates: list[str]) -> dict[str, tuple[str, str]]:
        """Forwarder id -> (the interface method it stands for, the DefaultImpls method it calls)."""
        chain = self.cache.chain(self.target)
        calls: dict[str, set[str]] = {}
        for r in self.store.rows(q.KOTLIN_DEFAULT_IMPLS_CALLS, {"ids": candidates, "suffix": _DEFAULT_IMPLS}):
            calls.setdefault(r["member"], set()).add(r["target"])
        out = {}
        for mid, called in calls.items():
            if len(called) != 1:
                continue  # two default bodies of one name called: not a forwarder's one call
            through = next(iter(called))
            owner, _, rest = through.partition("#")
            iface = owner[: -len(_DEFAULT_IMPLS)]
            name, paren, desc = rest.partition("(")
            k = self.cache.klass(iface) if iface in chain else None
            if k is None or k.kind != "interface" or not desc.startswith(f"L{iface};"):
                continue
            out[mid] = (f"{iface}#{name}({desc[len(iface) + 2:]}", through)
        return out
