/* A function body read out of libclang in one C pass: the instance walk's tree, with the facts the
 * walk asks of most nodes (kind, spelling, canonical type kind, extent, operator, what a name refers to).
 *
 * libclang's functions are looked up in the libclang the Python bindings already loaded (``bind``), so
 * this module needs no libclang headers or import library to build. The structs below are libclang's
 * stable C ABI (clang-c/Index.h, clang-c/CXString.h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <string.h>

typedef struct { int kind; int xdata; const void *data[3]; } CXCursor;
typedef struct { int kind; void *data[2]; } CXType;
typedef struct { const void *data; unsigned private_flags; } CXString;
typedef struct { const void *ptr_data[2]; unsigned int_data; } CXSourceLocation;
typedef struct { const void *ptr_data[2]; unsigned begin_int_data; unsigned end_int_data; } CXSourceRange;
typedef void *CXFile;
typedef int (*CXCursorVisitor)(CXCursor, CXCursor, void *);

enum {
    VISIT_RECURSE = 2,
    K_FUNCTION_DECL = 8, K_VAR_DECL = 9, K_PARM_DECL = 10, K_CXX_METHOD = 21, K_CONSTRUCTOR = 24,
    K_DESTRUCTOR = 25, K_CONVERSION_FUNCTION = 26, K_FUNCTION_TEMPLATE = 30,
    K_DECL_REF_EXPR = 101, K_MEMBER_REF_EXPR = 102, K_CALL_EXPR = 103,
    K_UNARY_OPERATOR = 112, K_BINARY_OPERATOR = 114, K_COMPOUND_ASSIGNMENT_OPERATOR = 115,
    SC_STATIC = 3,
};

static struct {
    unsigned (*visitChildren)(CXCursor, CXCursorVisitor, void *);
    unsigned (*equalCursors)(CXCursor, CXCursor);
    int (*Cursor_isNull)(CXCursor);
    CXString (*getCursorSpelling)(CXCursor);
    CXString (*getCursorUSR)(CXCursor);
    const char *(*getCString)(CXString);
    void (*disposeString)(CXString);
    CXType (*getCursorType)(CXCursor);
    CXType (*getCanonicalType)(CXType);
    CXSourceRange (*getCursorExtent)(CXCursor);
    CXSourceLocation (*getRangeStart)(CXSourceRange);
    CXSourceLocation (*getRangeEnd)(CXSourceRange);
    CXSourceLocation (*getCursorLocation)(CXCursor);
    void (*getExpansionLocation)(CXSourceLocation, CXFile *, unsigned *, unsigned *, unsigned *);
    CXString (*getFileName)(CXFile);
    int (*Location_isInSystemHeader)(CXSourceLocation);
    CXCursor (*getCursorReferenced)(CXCursor);
    CXCursor (*getCursorSemanticParent)(CXCursor);
    int (*Cursor_getStorageClass)(CXCursor);
    int (*getCursorBinaryOperatorKind)(CXCursor);
    CXString (*getBinaryOperatorKindSpelling)(int);
    int (*getCursorUnaryOperatorKind)(CXCursor);
    CXString (*getUnaryOperatorKindSpelling)(int);
} lib;
static int bound = 0;

static const char *NAMES[] = {
    "clang_visitChildren", "clang_equalCursors", "clang_Cursor_isNull", "clang_getCursorSpelling",
    "clang_getCursorUSR", "clang_getCString", "clang_disposeString", "clang_getCursorType",
    "clang_getCanonicalType", "clang_getCursorExtent", "clang_getRangeStart", "clang_getRangeEnd",
    "clang_getCursorLocation", "clang_getExpansionLocation", "clang_getFileName",
    "clang_Location_isInSystemHeader", "clang_getCursorReferenced", "clang_getCursorSemanticParent",
    "clang_Cursor_getStorageClass", "clang_getCursorBinaryOperatorKind", "clang_getBinaryOperatorKindSpelling",
    "clang_getCursorUnaryOperatorKind", "clang_getUnaryOperatorKindSpelling",
};

static PyObject *bind(PyObject *self, PyObject *args) {
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path))
        return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL)
        handle = dlopen(path, RTLD_NOW);
    if (handle == NULL) {
        PyErr_Format(PyExc_OSError, "cannot open %s: %s", path, dlerror());
        return NULL;
    }
    void **slots = (void **)&lib;
    for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++) {
        slots[i] = dlsym(handle, NAMES[i]);
        if (slots[i] == NULL) {
            PyErr_Format(PyExc_OSError, "%s has no %s", path, NAMES[i]);
            return NULL;
        }
    }
    bound = 1;
    Py_RETURN_NONE;
}

/* A CXString as a Python str (disposed here); NULL on a decoding error. */
static PyObject *take_string(CXString s) {
    const char *c = lib.getCString(s);
    PyObject *out = PyUnicode_DecodeUTF8(c ? c : "", c ? (Py_ssize_t)strlen(c) : 0, "strict");
    lib.disposeString(s);
    return out;
}

/* The names of a body's files, one str per file handle. */
typedef struct {
    CXFile handle[8];
    PyObject *name[8];
    int used;
} FileNames;

static PyObject *file_name(FileNames *cache, CXFile f) {
    if (f == NULL)
        Py_RETURN_NONE;
    for (int i = 0; i < cache->used; i++)
        if (cache->handle[i] == f)
            return Py_NewRef(cache->name[i]);
    PyObject *name = take_string(lib.getFileName(f));
    if (name == NULL)
        return NULL;
    if (cache->used < 8) {
        cache->handle[cache->used] = f;
        cache->name[cache->used++] = Py_NewRef(name);
    }
    return name;
}

static int is_function(int kind) {
    return kind == K_FUNCTION_DECL || kind == K_CXX_METHOD || kind == K_FUNCTION_TEMPLATE ||
           kind == K_CONSTRUCTOR || kind == K_DESTRUCTOR || kind == K_CONVERSION_FUNCTION;
}

static int canonical_kind(CXCursor c) { return lib.getCanonicalType(lib.getCursorType(c)).kind; }

/* A non-static local of a function (miner.parse.instances._is_automatic). */
static PyObject *automatic(CXCursor c) {
    CXCursor parent = lib.getCursorSemanticParent(c);
    int yes = !lib.Cursor_isNull(parent) && is_function(parent.kind) && lib.Cursor_getStorageClass(c) != SC_STATIC;
    return PyBool_FromLong(yes);
}

typedef struct {
    PyObject *rows;     /* list of row tuples, in visit order */
    PyObject *cursors;  /* bytearray: each row's CXCursor */
    PyObject *refs;     /* bytearray: each reference's CXCursor */
    Py_ssize_t n_refs;
    CXCursor *stack;    /* the open ancestors of the next node, as in miner.parse.cursor_tree */
    Py_ssize_t *stack_row;
    Py_ssize_t depth, cap;
    FileNames files;
    int failed;
} Flat;

static int append_bytes(PyObject *array, const void *data, Py_ssize_t size) {
    Py_ssize_t at = PyByteArray_GET_SIZE(array);
    if (PyByteArray_Resize(array, at + size) < 0)
        return -1;
    memcpy(PyByteArray_AS_STRING(array) + at, data, size);
    return 0;
}

/* (kind, spelling, canonical type kind, automatic, in a system header, USR or None, index) of what a name
 * refers to; USR only for a function outside system headers, the walk's callees. */
static PyObject *reference(Flat *flat, CXCursor c) {
    CXCursor ref = lib.getCursorReferenced(c);
    if (lib.Cursor_isNull(ref))
        Py_RETURN_NONE;
    int system = lib.Location_isInSystemHeader(lib.getCursorLocation(ref));
    PyObject *spelling = take_string(lib.getCursorSpelling(ref));
    if (spelling == NULL)
        return NULL;
    PyObject *usr;
    if (!system && (ref.kind == K_FUNCTION_DECL || ref.kind == K_CXX_METHOD || ref.kind == K_FUNCTION_TEMPLATE))
        usr = take_string(lib.getCursorUSR(ref));
    else
        usr = Py_NewRef(Py_None);
    PyObject *aut = automatic(ref);
    if (usr == NULL || append_bytes(flat->refs, &ref, sizeof ref) < 0) {
        Py_DECREF(spelling);
        Py_XDECREF(usr);
        Py_DECREF(aut);
        return NULL;
    }
    return Py_BuildValue("(iNiNNNn)", ref.kind, spelling, canonical_kind(ref), aut, PyBool_FromLong(system), usr,
                         flat->n_refs++);
}

static PyObject *operator_spelling(CXCursor c) {
    if (c.kind == K_UNARY_OPERATOR)
        return take_string(lib.getUnaryOperatorKindSpelling(lib.getCursorUnaryOperatorKind(c)));
    if (c.kind == K_BINARY_OPERATOR || c.kind == K_COMPOUND_ASSIGNMENT_OPERATOR)
        return take_string(lib.getBinaryOperatorKindSpelling(lib.getCursorBinaryOperatorKind(c)));
    Py_RETURN_NONE;
}

static PyObject *row(Flat *flat, CXCursor c, Py_ssize_t parent) {
    int k = c.kind;
    int named = k == K_VAR_DECL || k == K_PARM_DECL || k == K_DECL_REF_EXPR || k == K_MEMBER_REF_EXPR ||
                k == K_CALL_EXPR;
    PyObject *spelling = named ? take_string(lib.getCursorSpelling(c)) : Py_NewRef(Py_None);
    CXSourceRange extent = lib.getCursorExtent(c);
    CXFile file, end_file;
    unsigned line, column, offset, end_line, end_offset;
    lib.getExpansionLocation(lib.getRangeStart(extent), &file, &line, &column, &offset);
    lib.getExpansionLocation(lib.getRangeEnd(extent), &end_file, &end_line, &column, &end_offset);
    PyObject *name = file_name(&flat->files, file);
    PyObject *op = operator_spelling(c);
    PyObject *aut = k == K_VAR_DECL ? automatic(c) : Py_NewRef(Py_None);
    PyObject *ref = (k == K_DECL_REF_EXPR || k == K_MEMBER_REF_EXPR || k == K_CALL_EXPR) ? reference(flat, c)
                                                                                          : Py_NewRef(Py_None);
    if (spelling == NULL || name == NULL || op == NULL || ref == NULL) {
        Py_XDECREF(spelling);
        Py_XDECREF(name);
        Py_XDECREF(op);
        Py_XDECREF(aut);
        Py_XDECREF(ref);
        return NULL;
    }
    return Py_BuildValue("(inNiIIIINNNN)", k, parent, spelling, canonical_kind(c), line, offset, end_line,
                         end_offset, name, op, aut, ref);
}

static int add(Flat *flat, CXCursor c, Py_ssize_t parent) {
    PyObject *r = row(flat, c, parent);
    if (r == NULL)
        return -1;
    int failed = PyList_Append(flat->rows, r) < 0 || append_bytes(flat->cursors, &c, sizeof c) < 0;
    Py_DECREF(r);
    if (failed)
        return -1;
    if (flat->depth == flat->cap) {
        Py_ssize_t cap = flat->cap ? 2 * flat->cap : 64;
        CXCursor *stack = PyMem_Realloc(flat->stack, cap * sizeof *stack);
        if (stack == NULL)
            return -1;
        flat->stack = stack;
        Py_ssize_t *rows = PyMem_Realloc(flat->stack_row, cap * sizeof *rows);
        if (rows == NULL)
            return -1;
        flat->stack_row = rows;
        flat->cap = cap;
    }
    flat->stack[flat->depth] = c;
    flat->stack_row[flat->depth++] = PyList_GET_SIZE(flat->rows) - 1;
    return 0;
}

static int visit(CXCursor child, CXCursor parent, void *data) {
    Flat *flat = data;
    while (flat->depth > 1 && !lib.equalCursors(flat->stack[flat->depth - 1], parent))
        flat->depth--;
    if (add(flat, child, flat->stack_row[flat->depth - 1]) < 0) {
        flat->failed = 1;
        return 0; /* CXChildVisit_Break */
    }
    return VISIT_RECURSE;
}

/* flatten(cursor: bytes-like of one CXCursor) -> (rows, cursors, refs)
 * rows[i] = (kind, parent row or -1, spelling or None, canonical type kind, line, offset, end line, end offset,
 *            file name or None, operator or None, automatic or None, reference or None) */
static PyObject *flatten(PyObject *self, PyObject *args) {
    Py_buffer root;
    if (!bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind(libclang path) first");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*", &root))
        return NULL;
    if (root.len != sizeof(CXCursor)) {
        PyBuffer_Release(&root);
        PyErr_SetString(PyExc_ValueError, "not a CXCursor");
        return NULL;
    }
    CXCursor top;
    memcpy(&top, root.buf, sizeof top);
    PyBuffer_Release(&root);
    Flat flat = {0};
    flat.rows = PyList_New(0);
    flat.cursors = PyByteArray_FromStringAndSize(NULL, 0);
    flat.refs = PyByteArray_FromStringAndSize(NULL, 0);
    PyObject *out = NULL;
    if (flat.rows && flat.cursors && flat.refs && add(&flat, top, -1) == 0) {
        lib.visitChildren(top, visit, &flat);
        if (!flat.failed)
            out = PyTuple_Pack(3, flat.rows, flat.cursors, flat.refs);
    }
    for (int i = 0; i < flat.files.used; i++)
        Py_DECREF(flat.files.name[i]);
    PyMem_Free(flat.stack);
    PyMem_Free(flat.stack_row);
    Py_XDECREF(flat.rows);
    Py_XDECREF(flat.cursors);
    Py_XDECREF(flat.refs);
    return out;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS, "Look up libclang's functions in the library at this path."},
    {"flatten", flatten, METH_VARARGS, "A cursor and everything below it, as rows of facts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_flat", NULL, -1, methods};

PyMODINIT_FUNC PyInit__flat(void) { return PyModule_Create(&module); }
