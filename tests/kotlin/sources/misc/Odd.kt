package kt

object Single { fun f() = 1 }

class Odd(val n: Int) {
    constructor(s: String) : this(s.length)

    fun runner(): Runnable = object : Runnable {
        override fun run() {
            println(n)
        }
    }

    fun twice(): Int {
        fun inner(k: Int) = k * 2
        return inner(n)
    }

    fun adder(): (Int) -> Int = { k ->
        k + n
    }
}

/** Counts, delegating the rest to [inner]. */
@Suppress("unused")
internal class Counted(private val inner: Runnable, val n: Int) : Any(), Runnable by inner {
    fun count(): Int = n + 1

    fun reference(): () -> Int = this::count
}
