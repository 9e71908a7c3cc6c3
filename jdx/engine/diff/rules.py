"""The rule ids of `jdx diff` and their severities (spec §7.7): one rule per finding, agents filter on the id.

BREAKING: an already-compiled caller can fail to link or run (JLS §13). SUSPICIOUS: binary-compatible by the
letter of JLS §13.5, but recompiling, the Kotlin view or behaviour can still break. INFO: additive or cosmetic.
"""

from __future__ import annotations

BREAKING, SUSPICIOUS, INFO = "breaking", "suspicious", "info"
# the choices of `--visibility`, `--severity` and `--fail-on`
VISIBILITIES = ("public", "all")
SEVERITY_FILTERS = ("all", "info", "suspicious", "breaking")  # info: the least severe, so all
FAIL_ON = ("none", "breaking", "any")
DEFAULT_LIMIT = 200
SEVERITIES = (BREAKING, SUSPICIOUS, INFO)  # most severe first
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}

_BREAKING = (
    "TYPE_REMOVED", "TYPE_KIND_CHANGED", "TYPE_VISIBILITY_NARROWED", "TYPE_MADE_FINAL", "SUPERTYPE_REMOVED",
    "MEMBER_REMOVED", "MEMBER_VISIBILITY_NARROWED", "MEMBER_MADE_FINAL", "STATIC_TO_INSTANCE", "INSTANCE_TO_STATIC",
    "ABSTRACT_ADDED", "INTERFACE_METHOD_ADDED", "ENUM_CONSTANT_REMOVED", "PARAMETER_TYPE_CHANGED",
    "RETURN_TYPE_CHANGED", "FIELD_TYPE_CHANGED",
    # departures from spec §7.7's lists (docs/diff.md): a type made sealed (JVMS §5.3.5: an outside subclass fails
    # to load) and an annotation element that lost its default (reading an annotation that relied on it throws
    # IncompleteAnnotationException; sources omitting it no longer compile)
    "TYPE_MADE_SEALED", "ANNOTATION_DEFAULT_REMOVED",
    # a JVM rename of one Kotlin declaration (@JvmName, internal mangling, a suspend flip's Continuation): Kotlin
    # sources still compile, but the old JVM name and descriptor are gone, so compiled callers fail to link
    # (NoSuchMethodError). Spec §7.7 lists both as suspicious, which it defines as binary-compatible; the engine only
    # reports them for a removal nothing else resolves (compare._compare_members), so they are breaking (docs/diff.md)
    "KOTLIN_NAME_CHANGED", "KOTLIN_SUSPEND_CHANGED", "KOTLIN_DEFAULT_STUB_REMOVED",
    # a top-level function moved to another file facade of its package: Kotlin sources unchanged, compiled callers
    # of the old facade fail to link (NoSuchMethodError; facades.py)
    "KOTLIN_FACADE_MOVED",
    # the newest class-file major version of the new side is higher: a JVM older than it refuses to load those
    # classes (UnsupportedClassVersionError), so every consumer on that JVM breaks
    "CLASS_VERSION_RAISED",
    # a record made a plain class: java.lang.Record left its supertypes, so a caller using it as a Record fails to
    # link (VerifyError), and record patterns over it no longer compile; callers of the members it kept still link
    "TYPE_NO_LONGER_RECORD",
)
_SUSPICIOUS = (
    "MEMBER_MOVED_TO_SUPERTYPE", "MEMBER_MADE_SYNTHETIC", "GENERIC_SIGNATURE_CHANGED", "CHECKED_EXCEPTION_ADDED",
    "VARARGS_CHANGED", "NATIVE_ADDED", "NATIVE_REMOVED", "KOTLIN_NULLABILITY_CHANGED", "KOTLIN_DEFAULT_ARG_REMOVED",
    "KOTLIN_PARAMETER_NAME_CHANGED",
    # a static method made final: compiled subclasses hiding it still link and run (JLS §13.4.17); they no longer
    # compile
    "STATIC_METHOD_MADE_FINAL",
    # a method made more visible (protected -> public): a compiled subclass overriding or hiding it with the old
    # access still links and runs; recompiled, it no longer compiles (JLS §8.4.8.3, weaker access)
    "METHOD_VISIBILITY_WIDENED",
    # a sealed type's permitted subtypes grew, or it is no longer sealed: binary compatible (JLS §13.4.2.1), but a
    # switch that was exhaustive over it no longer compiles, and a compiled one throws MatchException on the new
    # subtype; a permitted subtype removed: a `case` naming it no longer compiles (the subtype's own finding says
    # what breaks for it)
    "SEALED_PERMITS_ADDED", "SEALED_PERMITS_REMOVED", "TYPE_NO_LONGER_SEALED",
    # a package module users could read that the new version's module no longer exports to every module: modular
    # clients fail (IllegalAccessError; recompiling fails), classpath clients do not (modules.withdrawn_exports)
    "PACKAGE_UNEXPORTED",
    # a Kotlin declaration whose JVM descriptor stayed while its Kotlin types changed: compiled callers link, Kotlin
    # sources may no longer compile (a return narrowed to a subtype on a member nothing outside can override: info)
    "KOTLIN_TYPE_CHANGED",
    # a Kotlin class or interface made sealed in its metadata alone (no PermittedSubclasses: kotlinc below a JVM 17
    # target): compiled implementors and Java sources still work, Kotlin code outside the module no longer compiles
    "KOTLIN_MADE_SEALED",
)
_INFO = (
    "TYPE_ADDED", "SUPERTYPE_ADDED", "MEMBER_ADDED", "FINAL_REMOVED", "ABSTRACT_REMOVED", "ANNOTATION_ADDED",
    "ANNOTATION_REMOVED", "ANNOTATION_VALUES_CHANGED", "DEPRECATED_ADDED", "DEPRECATED_REMOVED", "THROWS_REMOVED",
    "PARAMETER_NAME_CHANGED", "PARAMETER_NAMES_LOST", "SYNCHRONIZED_ADDED", "SYNCHRONIZED_REMOVED",
    "TRANSIENT_CHANGED", "FIELD_CONSTANT_VALUE_CHANGED", "ANNOTATION_DEFAULT_CHANGED", "KOTLIN_DEFAULT_ARG_ADDED",
    "KOTLIN_PROPERTY_BECAME_MUTABLE",
    # a class that became a record, every old member kept: binary compatible (a non-final one is TYPE_MADE_FINAL)
    "TYPE_BECAME_RECORD",
    # the newest class-file major version went down: the classes load on more JVMs
    "CLASS_VERSION_LOWERED",
    # a package the old version's module did not export to every module and the new version exports: module users
    # can now read its public types (modules.granted_exports)
    "PACKAGE_EXPORTED",
)

RULES: dict[str, str] = {
    **{r: BREAKING for r in _BREAKING}, **{r: SUSPICIOUS for r in _SUSPICIOUS}, **{r: INFO for r in _INFO},
}
# rules judged from Kotlin metadata (the Kotlin view); the Java comparison never emits them
KOTLIN_RULES = tuple(r for r in RULES if r.startswith("KOTLIN_"))
# rules about a whole side, never a type or member: the class-file version (one finding per diff)
SIDE_RULES = ("CLASS_VERSION_RAISED", "CLASS_VERSION_LOWERED")
# rules about a package, read from the sides' module descriptors: the fixture suite's classes hold none
PACKAGE_RULES = ("PACKAGE_UNEXPORTED", "PACKAGE_EXPORTED")
JAVA_RULES = tuple(r for r in RULES if not r.startswith("KOTLIN_") and r not in SIDE_RULES + PACKAGE_RULES)


def severity_of(rule: str) -> str:
    return RULES[rule]
