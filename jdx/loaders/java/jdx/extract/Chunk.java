package jdx.extract;

/** The tables of a slice of one artifact's class files, ready to cross to Python. */
public final class Chunk {
    public final int artifact;
    public final int index;
    public int count;
    public int classes;
    public final Columns cols = new Columns();

    public final Columns.Table types = new Columns.Table("types", "name", "kind", "access", "signature", "super",
            "outer", "inner_name", "inner_access", "outer_method", "source_file", "version", "kotlin", "entry",
            "permits", "record_components");
    public final Columns.Table supertypes = new Columns.Table("supertypes", "type", "super", "kind", "position");
    public final Columns.Table members = new Columns.Table("members", "id", "owner", "kind", "name", "descriptor",
            "signature", "access", "exceptions", "param_names", "param_source", "constant", "annotation_default",
            "first_line", "last_line", "ordinal");
    public final Columns.Table calls = new Columns.Table("calls", "from", "kind", "to", "line");
    public final Columns.Table accesses = new Columns.Table("accesses", "from", "kind", "to", "line");
    public final Columns.Table typerefs = new Columns.Table("typerefs", "from", "kind", "to", "line");
    public final Columns.Table annotations = new Columns.Table("annotations", "owner_kind", "owner", "member_name",
            "member_desc", "param", "annotation", "visible", "text", "site", "element");
    public final Columns.Table warnings = new Columns.Table("warnings", "code", "entry", "message");

    public final Columns.Table[] tables = {types, supertypes, members, calls, accesses, typerefs, annotations,
        warnings};

    /** Which columns hold pool indexes (strings); the rest are plain ints. */
    public static final String STRING_COLUMNS = "name signature super outer inner_name outer_method source_file kotlin "
            + "entry type owner descriptor exceptions param_names constant annotation_default id from to "
            + "member_name member_desc annotation text code message permits record_components site element";

    Chunk(int artifact, int index) {
        this.artifact = artifact;
        this.index = index;
    }

    void warn(String code, String entry, String message) {
        warnings.row(cols.str(code), cols.str(entry), cols.str(message));
    }

    /** Row counts of every table, to undo a class that failed half way. */
    int[] mark() {
        int[] m = new int[tables.length];
        for (int i = 0; i < tables.length; i++) {
            m[i] = tables[i].rows;
        }
        return m;
    }

    void reset(int[] m) {
        for (int i = 0; i < tables.length; i++) {
            Columns.Table t = tables[i];
            t.rows = m[i];
            for (Columns.IntCol c : t.cols) {
                c.size = m[i];
            }
        }
    }
}
