"""How a Java exception reads in a warning (T36: DECOMPILE_FAILED ended mid-parenthesis, `…are in unnamed module;
falling back to javap`): the JVM's note of which module and loader the classes are in is left out, and a message
still too long is cut with `…`, never silently."""

from __future__ import annotations

from jdx.loaders.java_tools import DESCRIBED_MAX, describe

CCE = ("class com.strobel.assembler.ir.attributes.BlobAttribute cannot be cast to class "
       "com.strobel.assembler.ir.attributes.BootstrapMethodsAttribute (com.strobel.assembler.ir.attributes."
       "BlobAttribute and com.strobel.assembler.ir.attributes.BootstrapMethodsAttribute are in unnamed module of "
       "loader 'app')")  # HotSpot 17's ClassCastException message, as Procyon 0.6 threw it on a class of major 69


class _Throwable:
    def __init__(self, name: str, message: str | None):
        self._name, self._message = name, message

    def getClass(self):
        name = self._name
        return type("C", (), {"getSimpleName": staticmethod(lambda: name)})

    def getMessage(self):
        return self._message


def test_the_module_note_is_left_out_and_the_message_is_whole():
    text = describe(_Throwable("ClassCastException", CCE))
    assert text == ("ClassCastException: class com.strobel.assembler.ir.attributes.BlobAttribute cannot be cast to "
                    "class com.strobel.assembler.ir.attributes.BootstrapMethodsAttribute"), text


def test_a_long_message_is_cut_visibly():
    text = describe(_Throwable("IllegalStateException", "x" * 1000))
    assert len(text) == DESCRIBED_MAX and text.endswith("…")
    assert describe(_Throwable("NullPointerException", None)) == "NullPointerException"
