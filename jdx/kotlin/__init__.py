"""Kotlin's `@Metadata`, decoded and rendered in pure Python (spec §12.1). A leaf package: it imports
nothing else of jdx, so loaders (shards) and the engine (views) can both use it."""

from jdx.kotlin.decode import decode_metadata
from jdx.kotlin.model import KotlinMetadata
from jdx.kotlin.wire import MetadataError

__all__ = ["KotlinMetadata", "MetadataError", "decode_metadata"]
