@file:JvmName("Exts")
package kt

/**
 * Twice this vector. Same as [Vec.scale] with `2`.
 * @receiver the vector to double
 */
fun Vec.doubled(): Vec = scale(2.0)

/** Sums [vs]; an empty call gives [Vec.Companion.Origin]. */
fun sum(vararg vs: Vec): Vec {
    var acc = Vec.Origin
    for (v in vs) {
        acc = Vec(acc.x + v.x, acc.y + v.y)
    }
    return acc
}

fun join(items: List<String>, sep: String = ", ", prefix: String = ""): String =
    prefix + items.joinToString(sep)

val Vec.isZero: Boolean
    get() = x == 0.0 && y == 0.0

inline fun <T> measure(block: () -> T): T {
    val t = System.nanoTime()
    try {
        return block()
    } finally {
        println(System.nanoTime() - t)
    }
}

fun usesInline(): Int = measure {
    41 + 1
}
