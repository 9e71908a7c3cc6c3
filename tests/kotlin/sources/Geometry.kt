package kt

import kotlin.math.sqrt

/**
 * A point in the plane. See [distanceTo] and [Origin].
 *
 * Points are immutable; use [copy] to change one.
 * @property x the horizontal coordinate
 * @property y the vertical coordinate
 * @constructor makes a point at [x], [y]
 */
data class Vec(val x: Double, val y: Double = 0.0) {
    /**
     * The Euclidean distance to [other], as [kotlin.math.sqrt] computes it.
     *
     * @param other the other point
     * @return a non-negative distance
     * @see Vec.norm
     */
    fun distanceTo(other: Vec): Double {
        val dx = x - other.x
        val dy = y - other.y
        return sqrt(dx * dx + dy * dy)
    }

    /** The length of this vector. */
    val norm: Double
        get() = sqrt(x * x + y * y)

    var label: String = ""
        get() = field.trim()
        set(value) {
            field = value.toUpperCase()
        }

    fun scale(k: Double): Vec = Vec(x * k, y * k)

    fun scale(k: Int): Vec =
        Vec(x * k, y * k)

    companion object {
        /** The origin, `(0, 0)`. */
        val Origin = Vec(0.0, 0.0)

        /** Parses `"x,y"`; see [Vec]. */
        @JvmStatic
        fun parse(text: String): Vec {
            val parts = text.split(",")
            return Vec(parts[0].toDouble(), parts[1].toDouble())
        }
    }
}

/** Kinds of shapes. */
sealed class Figure {
    abstract fun area(): Double

    class Square(val side: Double) : Figure() {
        override fun area(): Double = side * side
    }

    object Empty : Figure() {
        override fun area() = 0.0
    }
}

interface Named {
    val name: String

    /**
     * A greeting for this name.
     *
     * ```
     * Person("Ada").greet()  // "Hello, Ada"
     * ```
     * @param prefix what comes first, [Person.name] after it
     */
    fun greet(prefix: String = "Hello"): String = "$prefix, $name"
}

class Person(override val name: String) : Named {
    constructor(first: String, last: String) : this("$first $last")

    override fun greet(prefix: String): String {
        return prefix + " " + name
    }
}

enum class Axis(val label: String) {
    X("x"),
    Y("y") {
        override fun flip() = X
    };

    open fun flip(): Axis = Y
}
