@file:JvmName("Strings")
@file:JvmMultifileClass

package kt.text

/** Shouts [s]; see [whisper]. */
fun shout(s: String): String = s.toUpperCase() + "!"

val String.vowels: Int
    get() = count { it in "aeiou" }
