"""Procyon's line map made right: its printer reads every bytecode offset through the line table of the method it
is printing, so a lambda body's offsets (read through the enclosing method's table), a local class's (its table
left in force for the rest of the enclosing method) and an anonymous class's (printed by a printer whose record is
dropped) land on wrong lines or none. `LinePositions` finds each node's own code before printing and places those
lines itself (docs/decompilation.md, "Procyon's line map")."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any


@dataclass(eq=False)
class _Code:
    """One body of bytecode in Procyon's tree (a method, a lambda's method, a class's <clinit>): its LineNumberTable
    as sorted (pc, line), whether Procyon's printer reads its offsets right (`printed`), and the highest line
    recorded in it so far."""

    table: list[tuple[int, int]]
    printed: bool = False
    last: int = -1

    def line_at(self, offset: int) -> int:
        """The line of the instruction at `offset`, as Procyon's LineNumberTableConverter reads it; -1 before the
        first entry."""
        at = bisect.bisect_right(self.table, (offset, 1 << 30)) - 1
        return self.table[at][1] if at >= 0 else -1


MYSTERY_OFFSET = -34  # Procyon's "no offset": its printer records no line for such a node


class LinePositions:
    """Where Procyon's printer misreads class-file lines, and where they went instead.

    `take_misread(unit)` walks the tree before it is printed, finds each statement's and expression's code (its
    method; a lambda's body: the lambda's method; static field initialisers, enum constants and static blocks:
    <clinit>), and for every node the printer would read with another code's table clears its offset (the printer
    then records nothing for it) and keeps (code, line, node). `placed()`, after printing, gives (class-file line,
    decompiled line) for those: the line of the node's first printed token, recorded as Procyon does, where the
    line first rises within its code. An instance field's initialiser (javac copies it into every constructor) is
    left unmapped."""

    def __init__(self, loader):
        from jdx.loaders import java_tools as jt

        ast = "com.strobel.decompiler.languages.java.ast."
        cls = lambda name: jt.jclass(name, loader)  # noqa: E731
        self.keys = cls(ast + "Keys")
        self.expression, self.statement = cls(ast + "Expression"), cls(ast + "Statement")
        self.lambda_node, self.entity, self.type_node = cls(ast + "LambdaExpression"), \
            cls(ast + "EntityDeclaration"), cls(ast + "TypeDeclaration")
        self.printed_nodes = (cls(ast + "MethodDeclaration"), cls(ast + "ConstructorDeclaration"))
        self.anonymous = cls(ast + "AnonymousObjectCreationExpression")
        self.member_nodes = (cls(ast + "FieldDeclaration"), cls(ast + "EnumValueDeclaration"))
        self.find_attribute = cls("com.strobel.assembler.ir.attributes.SourceAttribute").find
        self.handle_class = cls("com.strobel.assembler.metadata.MethodHandle")
        self.statement_offset = self.statement.class_.getDeclaredField("_offset")  # Statement has no setter
        self.statement_offset.setAccessible(True)
        self.clinits: dict[str, _Code] = {}
        self._kinds: dict[type, tuple] = {}
        self.pending: list[tuple[_Code, int, Any]] = []

    def code_of(self, method, printed: bool = False) -> _Code:
        table = self.find_attribute("LineNumberTable", method.getSourceAttributes()) if method is not None else None
        entries = {} if table is None else {int(e.getOffset()): int(e.getLineNumber()) for e in table.getEntries()}
        return _Code(sorted(entries.items()), printed and bool(entries))

    def lambda_code(self, node) -> _Code:
        """The lambda's method, named by the implementation handle of the invokedynamic that creates it."""
        site = node.getUserData(self.keys.DYNAMIC_CALL_SITE)
        args = site.getBootstrapArguments() if site is not None else ()
        found = [a for a in args if isinstance(a, self.handle_class)]
        try:
            return self.code_of(found[0].getMethod().resolve() if found else None)
        except Exception:  # noqa: BLE001 - an unresolvable lambda method maps nothing
            return _Code([])

    def clinit_of(self, type_def) -> _Code | None:
        if type_def is None:
            return None
        name = str(type_def.getInternalName())
        if name not in self.clinits:
            found = [m for m in type_def.getDeclaredMethods() if str(m.getName()) == "<clinit>"]
            self.clinits[name] = self.code_of(found[0] if found else None)
        return self.clinits[name]

    def take_misread(self, unit) -> None:
        """Pre-order over the tree (an explicit stack: expression trees nest deeper than Python recurses), each node
        with its code, the method whose table the printer holds there (`host`), its type, and whether it is inside
        an anonymous class (which Procyon prints with a printer of its own, whose record it drops)."""
        stack = [(unit.getFirstChild(), None, None, None, False)]
        while stack:
            child, code, host, type_def, apart = stack.pop()
            if child is None:
                continue
            stack.append((child.getNextSibling(), code, host, type_def, apart))
            kind = self._kinds.get(type(child))
            if kind is None:
                kind = self._kinds[type(child)] = self._kind(child)
            if kind[0]:
                self._offset(child, code, kind[0] == "expression")
            inner, inner_host, inner_type, inner_apart = code, host, type_def, apart
            if kind[1] == "lambda":
                inner = self.lambda_code(child)
            elif kind[1] == "type":
                inner, inner_type = None, child.getUserData(self.keys.TYPE_DEFINITION)
                inner_apart = apart or isinstance(child.getParent(), self.anonymous)
                if host is not None and host.printed:  # a local class's methods leave their table in force for
                    host.printed = False  # the rest of host (an anonymous class's would not; no matter)
            elif kind[1] == "member":
                field_def = child.getUserData(self.keys.FIELD_DEFINITION)
                inner = self.clinit_of(type_def) if field_def is not None and field_def.isStatic() else None
            elif kind[1] == "entity":
                method = child.getUserData(self.keys.METHOD_DEFINITION)
                if method is None:
                    inner = None
                elif str(method.getName()) == "<clinit>":
                    inner = self.clinit_of(type_def)
                else:
                    inner = self.code_of(method, printed=not apart and kind[2])
                inner_host = inner
            stack.append((child.getFirstChild(), inner, inner_host, inner_type, inner_apart))

    def _kind(self, node) -> tuple[str | None, str | None, bool]:
        """(expression | statement | None: whether it has an offset, lambda | type | member | entity | None: what
        its children's code is, whether Procyon's printer reads its own method's table for it)."""
        code = "expression" if isinstance(node, self.expression) else \
            "statement" if isinstance(node, self.statement) else None
        role = "lambda" if isinstance(node, self.lambda_node) else "type" if isinstance(node, self.type_node) else \
            "member" if isinstance(node, self.member_nodes) else "entity" if isinstance(node, self.entity) else None
        return code, role, isinstance(node, self.printed_nodes)

    def _offset(self, node, code: _Code | None, expression: bool) -> None:
        offset = int(node.getOffset())
        if offset < 0:
            return
        line = code.line_at(offset) if code is not None else -1
        if code is not None and code.printed:
            code.last = max(code.last, line)  # where the printer's record of it stands
            return
        if expression:
            node.setOffset(MYSTERY_OFFSET)
        else:
            self.statement_offset.setInt(node, MYSTERY_OFFSET)
        if line >= 0:
            self.pending.append((code, line, node))

    def placed(self) -> list[tuple[int, int]]:
        out = []
        for code, line, node in self.pending:
            if line > code.last:
                row = self._row(node)
                if row > 0:
                    out.append((line, row))
                    code.last = line
        return out

    @staticmethod
    def _row(node) -> int:
        """The decompiled line of the node's first token printed with a place (keywords have none), 0 if none."""
        line = int(node.getStartLocation().line())
        if line > 0:
            return line
        for n, inner in enumerate(node.getDescendants()):
            line = int(inner.getStartLocation().line())
            if line > 0 or n > 64:
                return max(line, 0)
        return 0
