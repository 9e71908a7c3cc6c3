@file:JvmName("Strings")
@file:JvmMultifileClass

package kt.text

/** Whispers [s], the opposite of [shout]. */
fun whisper(s: String): String {
    val quiet = s.toLowerCase()
    return "($quiet)"
}
