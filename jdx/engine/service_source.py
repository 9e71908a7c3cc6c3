"""Sources and bodies (spec §7.1, §11): body, source, doc, samples.

A mixin of JdxService: methods use self.store(), self._root_warnings and return Answer.
"""

from __future__ import annotations

from jdx.engine.answer import Answer


class SourceCommands:
    _source_context = None

    def source_context(self):
        """The sources view of this workspace (pairing per artifact, parse cache); built once per service."""
        from jdx.engine.src_locate import SourceContext

        store = self.store()
        if self._source_context is None or self._source_context.store is not store:
            spec_src = list(getattr(self.selection().spec, "src", []) or [])
            src_dirs = list(dict.fromkeys(spec_src + list(self.options.src or [])))
            self._source_context = SourceContext(store, self.cache, {a.key: a for a in self.artifacts()},
                                                 list(self.options.sources or []), src_dirs)
        return self._source_context

    def body(self, ref_text: str, opts=None) -> Answer:
        """A member's (or a whole type's) text: sources, else decompiled, else javap, else signatures; labelled."""
        from jdx.engine import src_body

        opts = opts or src_body.BodyOptions()
        src_body.check_options(opts)
        ctx = self.source_context()
        kind, found = src_body.resolve_symbol(ctx.store, ref_text, require_one=True)
        target = src_body.type_target(found) if kind == "type" else src_body.member_target(ctx, found.members[0])
        result, warnings, provenance = src_body.body(ctx, target, opts)
        return Answer(result, list(self._root_warnings) + warnings, provenance=provenance)

    def source(self, type_text: str, lines: str | None = None, around: str | None = None,
               context: int | None = None, engine: str | None = None) -> Answer:
        """The source file of a type, or a slice of it (`--lines A:B`, `--around <member> --context N`)."""
        from jdx.engine import src_source
        from jdx.engine.resolve import resolve_type

        ctx = self.source_context()
        result, warnings, provenance = src_source.source(ctx, resolve_type(ctx.store, type_text), lines, around,
                                                         context, engine)
        return Answer(result, list(self._root_warnings) + warnings, provenance=provenance)

    def doc(self, ref_text: str, opts=None) -> Answer:
        """Javadoc as plain text; inherited from the nearest documented supertype method, labelled."""
        from jdx.engine import src_doc

        result, warnings, provenance = src_doc.doc(self.source_context(), ref_text, opts or src_doc.DocOptions())
        return Answer(result, list(self._root_warnings) + warnings, provenance=provenance)

    def source_window(self, type_id: str, line: int, context: int = 3) -> dict | None:
        """Lines around `line` of class `type_id` from its sources (for `samples`); None without sources."""
        from jdx.engine.src_source import source_window

        return source_window(self.source_context(), type_id, line, context)

    def reconstructed_window(self, caller_id: str, target_id: str, is_field: bool, context: int = 2) -> dict | None:
        """Lines around a use in the decompiled text of its enclosing method (`samples` without sources)."""
        from jdx.engine.src_samples import reconstructed_window

        return reconstructed_window(self.source_context(), caller_id, target_id, is_field, context)

    def first_sentence_docs(self, items: list[dict]) -> dict[str, str]:
        """First javadoc sentence per `members` result item (`members --with-doc`), keyed by its ref."""
        from jdx.engine.src_doc import first_sentence_docs

        return first_sentence_docs(self.source_context(), items)

    def type_first_sentence(self, type_id: str) -> str | None:
        """First javadoc sentence of a type (`show`'s doc line); None without sources or javadoc."""
        from jdx.engine.src_doc import type_first_sentence

        return type_first_sentence(self.source_context(), type_id)
