package kt

const val LIMIT = 10

/** Clamps [n] to `0..`[LIMIT]. */
fun clamp(n: Int): Int = if (n < 0) 0 else if (n > LIMIT) LIMIT else n

suspend fun fetch(id: Int): String? {
    return id.toString()
}
