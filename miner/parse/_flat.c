/* A function body read out of libclang in one C pass: the instance walk's tree, with the facts the
 * walk asks of most nodes (kind, spelling, canonical type kind, extent, operator, what a name refers to).
 *
 * libclang's functions are looked up in the libclang the Python bindings already loaded (``bind``), so
 * this module needs no libclang headers or import library to build. The structs below are libclang's
 * stable C ABI (clang-c/Index.h, clang-c/CXString.h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
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
    K_UNEXPOSED_EXPR = 100, K_PAREN_EXPR = 111, K_COMPOUND_STMT = 202, K_CXX_TRY_STMT = 224,
    K_CUDADEVICE_ATTR = 413, K_CUDAGLOBAL_ATTR = 414, K_CUDAHOST_ATTR = 415,
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
    void *(*Cursor_Evaluate)(CXCursor);
    int (*EvalResult_getKind)(void *);
    long long (*EvalResult_getAsLongLong)(void *);
    double (*EvalResult_getAsDouble)(void *);
    void (*EvalResult_dispose)(void *);
} lib;
static int bound = 0;

static const char *NAMES[] = {
    "clang_visitChildren", "clang_equalCursors", "clang_Cursor_isNull", "clang_getCursorSpelling",
    "clang_getCursorUSR", "clang_getCString", "clang_disposeString", "clang_getCursorType",
    "clang_getCanonicalType", "clang_getCursorExtent", "clang_getRangeStart", "clang_getRangeEnd",
    "clang_getCursorLocation", "clang_getExpansionLocation", "clang_getFileName",
    "clang_Location_isInSystemHeader", "clang_getCursorReferenced", "clang_getCursorSemanticParent",
    "clang_Cursor_getStorageClass", "clang_getCursorBinaryOperatorKind", "clang_getBinaryOperatorKindSpelling",
    "clang_getCursorUnaryOperatorKind", "clang_getUnaryOperatorKindSpelling", "clang_Cursor_Evaluate",
    "clang_EvalResult_getKind", "clang_EvalResult_getAsLongLong", "clang_EvalResult_getAsDouble",
    "clang_EvalResult_dispose",
};

static PyTypeObject *node_type, *ref_type;
static PyObject *kinds;

/* bind(libclang path, Node type, Ref type, CursorKind by id) */
static PyObject *bind(PyObject *self, PyObject *args) {
    const char *path;
    PyObject *node, *ref, *by_id;
    if (!PyArg_ParseTuple(args, "sO!O!O!", &path, &PyType_Type, &node, &PyType_Type, &ref, &PyList_Type, &by_id))
        return NULL;
    Py_XSETREF(node_type, (PyTypeObject *)Py_NewRef(node));
    Py_XSETREF(ref_type, (PyTypeObject *)Py_NewRef(ref));
    Py_XSETREF(kinds, Py_NewRef(by_id));
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

/* ------------------------------------------------------------------ the node and reference types */

typedef struct {
    PyObject_HEAD
    int raw_kind;
    char quiet;
    PyObject *kind, *children, *spelling, *tk, *line, *offset, *end_line, *end_offset, *file, *op, *automatic,
        *referenced, *unwrapped, *body, *index, *cursor;
} NodeObject;

typedef struct {
    PyObject_HEAD
    PyObject *kind, *spelling, *tk, *automatic, *system, *usr, *body, *index, *cursor;
} RefObject;

#define OPTIONAL(type, name, field) {name, T_OBJECT_EX, offsetof(type, field), 0, NULL}
#define LAZY(type, name, field) {name, T_OBJECT, offsetof(type, field), 0, NULL}

static PyMemberDef node_members[] = {
    OPTIONAL(NodeObject, "kind", kind), OPTIONAL(NodeObject, "children", children),
    OPTIONAL(NodeObject, "spelling", spelling), OPTIONAL(NodeObject, "tk", tk), OPTIONAL(NodeObject, "line", line),
    OPTIONAL(NodeObject, "offset", offset), OPTIONAL(NodeObject, "end_line", end_line),
    OPTIONAL(NodeObject, "end_offset", end_offset), OPTIONAL(NodeObject, "file", file),
    OPTIONAL(NodeObject, "op", op), OPTIONAL(NodeObject, "automatic", automatic),
    OPTIONAL(NodeObject, "referenced", referenced), LAZY(NodeObject, "_unwrapped", unwrapped),
    LAZY(NodeObject, "_body", body), LAZY(NodeObject, "_i", index),
    LAZY(NodeObject, "_cursor", cursor), {"quiet", T_BOOL, offsetof(NodeObject, quiet), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMemberDef ref_members[] = {
    OPTIONAL(RefObject, "kind", kind), OPTIONAL(RefObject, "spelling", spelling), OPTIONAL(RefObject, "tk", tk),
    OPTIONAL(RefObject, "automatic", automatic), OPTIONAL(RefObject, "system", system),
    LAZY(RefObject, "usr", usr), LAZY(RefObject, "_body", body), LAZY(RefObject, "_i", index),
    LAZY(RefObject, "_cursor", cursor), {NULL, 0, 0, 0, NULL},
};

static void node_dealloc(NodeObject *self) {
    Py_XDECREF(self->kind); Py_XDECREF(self->children); Py_XDECREF(self->spelling); Py_XDECREF(self->tk);
    Py_XDECREF(self->line); Py_XDECREF(self->offset); Py_XDECREF(self->end_line); Py_XDECREF(self->end_offset);
    Py_XDECREF(self->file); Py_XDECREF(self->op); Py_XDECREF(self->automatic); Py_XDECREF(self->referenced);
    Py_XDECREF(self->unwrapped); Py_XDECREF(self->body); Py_XDECREF(self->index); Py_XDECREF(self->cursor);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void ref_dealloc(RefObject *self) {
    Py_XDECREF(self->kind); Py_XDECREF(self->spelling); Py_XDECREF(self->tk); Py_XDECREF(self->automatic);
    Py_XDECREF(self->system); Py_XDECREF(self->usr); Py_XDECREF(self->body); Py_XDECREF(self->index);
    Py_XDECREF(self->cursor);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject NodeBase = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "miner.parse._flat.NodeBase",
    .tp_basicsize = sizeof(NodeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_dealloc = (destructor)node_dealloc,
    .tp_members = node_members,
    .tp_new = PyType_GenericNew,
    .tp_doc = "A body node's facts (miner.parse.cursor_tree.Node).",
};

static PyTypeObject RefBase = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "miner.parse._flat.RefBase",
    .tp_basicsize = sizeof(RefObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_dealloc = (destructor)ref_dealloc,
    .tp_members = ref_members,
    .tp_new = PyType_GenericNew,
    .tp_doc = "What a name refers to (miner.parse.cursor_tree.Ref).",
};

/* ------------------------------------------------------------------ one body */

typedef struct {
    PyTypeObject *node_type, *ref_type; /* Python subclasses of NodeBase and RefBase */
    PyObject *kinds;                    /* CursorKind by id (None where the bindings name none) */
    PyObject *body;                     /* what the tree's nodes share */
    PyObject *cursors;                  /* bytearray: each node's CXCursor, in visit order */
    PyObject *refs;                     /* bytearray: each reference's CXCursor */
    Py_ssize_t n_nodes, n_refs;
    CXCursor *stack;                    /* the open ancestors of the next node, as in miner.parse.cursor_tree */
    NodeObject **stack_node;
    Py_ssize_t depth, cap;
    NodeObject *root;
    NodeObject **all; /* every node, in visit order (borrowed) */
    Py_ssize_t all_cap;
    FileNames files;
    PyObject *seen_refs; /* dict: a referenced declaration (its cursor's bytes) -> its RefObject */
    int failed;
} Flat;

static int append_bytes(PyObject *array, const void *data, Py_ssize_t size) {
    Py_ssize_t at = PyByteArray_GET_SIZE(array);
    if (PyByteArray_Resize(array, at + size) < 0)
        return -1;
    memcpy(PyByteArray_AS_STRING(array) + at, data, size);
    return 0;
}

static PyObject *kind_object(Flat *flat, int kind) {
    if (kind < 0 || kind >= PyList_GET_SIZE(flat->kinds) || PyList_GET_ITEM(flat->kinds, kind) == Py_None) {
        PyErr_Format(PyExc_ValueError, "Unknown cursor kind %d", kind);
        return NULL;
    }
    return Py_NewRef(PyList_GET_ITEM(flat->kinds, kind));
}

/* What a name refers to: its kind, spelling, canonical type kind, whether it is a function's non-static local,
 * whether it is declared in a system header, and its USR when it is a function outside system headers (the
 * walk's callees); None for nothing. A declaration named many times in a body is one reference (its USR is costly). */
static PyObject *reference(Flat *flat, CXCursor c) {
    CXCursor ref = lib.getCursorReferenced(c);
    if (lib.Cursor_isNull(ref))
        Py_RETURN_NONE;
    PyObject *key = PyBytes_FromStringAndSize((const char *)&ref, sizeof ref);
    if (key == NULL)
        return NULL;
    PyObject *known = PyDict_GetItemWithError(flat->seen_refs, key);
    if (known != NULL || PyErr_Occurred()) {
        Py_DECREF(key);
        return known ? Py_NewRef(known) : NULL;
    }
    RefObject *r = (RefObject *)flat->ref_type->tp_alloc(flat->ref_type, 0);
    if (r == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    int system = lib.Location_isInSystemHeader(lib.getCursorLocation(ref));
    r->kind = kind_object(flat, ref.kind);
    r->spelling = take_string(lib.getCursorSpelling(ref));
    r->tk = PyLong_FromLong(canonical_kind(ref));
    r->automatic = automatic(ref);
    r->system = PyBool_FromLong(system);
    if (!system && (ref.kind == K_FUNCTION_DECL || ref.kind == K_CXX_METHOD || ref.kind == K_FUNCTION_TEMPLATE))
        r->usr = take_string(lib.getCursorUSR(ref));
    else
        r->usr = Py_NewRef(Py_None);
    r->body = Py_NewRef(flat->body);
    r->index = PyLong_FromSsize_t(flat->n_refs++);
    if (!r->kind || !r->spelling || !r->tk || !r->usr || !r->index || append_bytes(flat->refs, &ref, sizeof ref) < 0 ||
        PyDict_SetItem(flat->seen_refs, key, (PyObject *)r) < 0) {
        Py_DECREF(key);
        Py_DECREF(r);
        return NULL;
    }
    Py_DECREF(key);
    return (PyObject *)r;
}

static PyObject *operator_spelling(CXCursor c) {
    if (c.kind == K_UNARY_OPERATOR)
        return take_string(lib.getUnaryOperatorKindSpelling(lib.getCursorUnaryOperatorKind(c)));
    return take_string(lib.getBinaryOperatorKindSpelling(lib.getCursorBinaryOperatorKind(c)));
}

static NodeObject *node(Flat *flat, CXCursor c) {
    NodeObject *n = (NodeObject *)flat->node_type->tp_alloc(flat->node_type, 0);
    if (n == NULL)
        return NULL;
    int k = n->raw_kind = c.kind;
    CXSourceRange extent = lib.getCursorExtent(c);
    CXFile file, end_file;
    unsigned line, column, offset, end_line, end_offset;
    lib.getExpansionLocation(lib.getRangeStart(extent), &file, &line, &column, &offset);
    lib.getExpansionLocation(lib.getRangeEnd(extent), &end_file, &end_line, &column, &end_offset);
    int failed = (n->kind = kind_object(flat, k)) == NULL || (n->children = PyList_New(0)) == NULL ||
                 (n->tk = PyLong_FromLong(canonical_kind(c))) == NULL ||
                 (n->line = PyLong_FromUnsignedLong(line)) == NULL ||
                 (n->offset = PyLong_FromUnsignedLong(offset)) == NULL ||
                 (n->end_line = PyLong_FromUnsignedLong(end_line)) == NULL ||
                 (n->end_offset = PyLong_FromUnsignedLong(end_offset)) == NULL ||
                 (n->file = file_name(&flat->files, file)) == NULL;
    if (!failed && (k == K_VAR_DECL || k == K_PARM_DECL || k == K_DECL_REF_EXPR || k == K_MEMBER_REF_EXPR ||
                    k == K_CALL_EXPR))
        failed = (n->spelling = take_string(lib.getCursorSpelling(c))) == NULL;
    if (!failed && (k == K_UNARY_OPERATOR || k == K_BINARY_OPERATOR || k == K_COMPOUND_ASSIGNMENT_OPERATOR))
        failed = (n->op = operator_spelling(c)) == NULL;
    if (!failed && k == K_VAR_DECL)
        n->automatic = automatic(c);
    if (!failed && (k == K_DECL_REF_EXPR || k == K_MEMBER_REF_EXPR || k == K_CALL_EXPR))
        failed = (n->referenced = reference(flat, c)) == NULL;
    if (!failed) {
        n->body = Py_NewRef(flat->body);
        failed = (n->index = PyLong_FromSsize_t(flat->n_nodes++)) == NULL ||
                 append_bytes(flat->cursors, &c, sizeof c) < 0;
    }
    if (failed) {
        Py_DECREF(n);
        return NULL;
    }
    return n;
}

/* Adds ``c`` below the open node at ``depth - 1`` (the root when depth is 0) and opens it. */
static int add(Flat *flat, CXCursor c) {
    NodeObject *n = node(flat, c);
    if (n == NULL)
        return -1;
    if (flat->n_nodes > flat->all_cap) {
        Py_ssize_t cap = flat->all_cap ? 2 * flat->all_cap : 256;
        NodeObject **all = PyMem_Realloc(flat->all, cap * sizeof *all);
        if (all == NULL) {
            Py_DECREF(n);
            return -1;
        }
        flat->all = all;
        flat->all_cap = cap;
    }
    flat->all[flat->n_nodes - 1] = n;
    if (flat->depth == 0) {
        flat->root = n;
    } else {
        int failed = PyList_Append(flat->stack_node[flat->depth - 1]->children, (PyObject *)n) < 0;
        Py_DECREF(n); /* the parent's list holds it */
        if (failed)
            return -1;
    }
    if (flat->depth == flat->cap) {
        Py_ssize_t cap = flat->cap ? 2 * flat->cap : 64;
        CXCursor *stack = PyMem_Realloc(flat->stack, cap * sizeof *stack);
        if (stack == NULL)
            return -1;
        flat->stack = stack;
        NodeObject **nodes = PyMem_Realloc(flat->stack_node, cap * sizeof *nodes);
        if (nodes == NULL)
            return -1;
        flat->stack_node = nodes;
        flat->cap = cap;
    }
    flat->stack[flat->depth] = c;
    flat->stack_node[flat->depth++] = n;
    return 0;
}

static int visit(CXCursor child, CXCursor parent, void *data) {
    Flat *flat = data;
    while (flat->depth > 1 && !lib.equalCursors(flat->stack[flat->depth - 1], parent))
        flat->depth--;
    if (add(flat, child) < 0) {
        flat->failed = 1;
        return 0; /* CXChildVisit_Break */
    }
    return VISIT_RECURSE;
}

static int op_is(NodeObject *n, const char *op) {
    return n->op != NULL && PyUnicode_CompareWithASCIIString(n->op, op) == 0;
}

/* A node that declares a variable, calls, assigns, increments, decrements or takes an address
 * (miner.parse.instances._written_names reads only these). */
static int writes(NodeObject *n) {
    switch (n->raw_kind) {
    case K_VAR_DECL:
    case K_CALL_EXPR:
    case K_COMPOUND_ASSIGNMENT_OPERATOR:
        return 1;
    case K_BINARY_OPERATOR:
        return op_is(n, "=");
    case K_UNARY_OPERATOR:
        return op_is(n, "++") || op_is(n, "--") || op_is(n, "&");
    default:
        return 0;
    }
}

/* Per node, what it is below the parentheses and implicit conversions that wrap it alone
 * (miner.parse.instances._unwrap; None for the node itself), and whether nothing in it ``writes`` (``quiet``).
 * Children come after their parent. */
static void unwrap(Flat *flat) {
    for (Py_ssize_t i = flat->n_nodes - 1; i >= 0; i--) {
        NodeObject *n = flat->all[i];
        Py_ssize_t count = PyList_GET_SIZE(n->children);
        n->quiet = !writes(n);
        for (Py_ssize_t j = 0; j < count && n->quiet; j++)
            n->quiet = ((NodeObject *)PyList_GET_ITEM(n->children, j))->quiet;
        if (count != 1 || !(n->raw_kind == K_UNEXPOSED_EXPR || n->raw_kind == K_PAREN_EXPR))
            continue;
        NodeObject *child = (NodeObject *)PyList_GET_ITEM(n->children, 0);
        n->unwrapped = Py_NewRef(child->unwrapped != NULL ? child->unwrapped : (PyObject *)child);
    }
}

/* attributes(cursor: bytes of one CXCursor) -> bits: 1 __global__, 2 __device__, 4 __host__, from the
 * function's children before its body (miner.parse.clang_facts._exec_space) */
static int attribute(CXCursor child, CXCursor parent, void *data) {
    int *bits = data;
    if (child.kind == K_COMPOUND_STMT || child.kind == K_CXX_TRY_STMT)
        return 0; /* CXChildVisit_Break: attributes come before the body */
    if (child.kind == K_CUDAGLOBAL_ATTR)
        *bits |= 1;
    else if (child.kind == K_CUDADEVICE_ATTR)
        *bits |= 2;
    else if (child.kind == K_CUDAHOST_ATTR)
        *bits |= 4;
    return 1; /* CXChildVisit_Continue */
}

/* The CXCursor in ``buffer`` (released here); -1 with an exception set when it is none, or before ``bind``. */
static int take_cursor(Py_buffer *buffer, CXCursor *out) {
    int whole = buffer->len == sizeof(CXCursor);
    if (whole)
        memcpy(out, buffer->buf, sizeof *out);
    PyBuffer_Release(buffer);
    if (!whole) {
        PyErr_SetString(PyExc_ValueError, "not a CXCursor");
        return -1;
    }
    if (!bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() first");
        return -1;
    }
    return 0;
}

static PyObject *attributes(PyObject *self, PyObject *args) {
    Py_buffer fn;
    CXCursor c;
    if (!PyArg_ParseTuple(args, "y*", &fn) || take_cursor(&fn, &c) < 0)
        return NULL;
    int bits = 0;
    lib.visitChildren(c, attribute, &bits);
    return PyLong_FromLong(bits);
}

/* flatten(cursor: bytes of one CXCursor, body) -> (root node, cursors, refs): the tree below ``cursor`` as
 * nodes that share ``body``, with each node's and each reference's CXCursor in visit order. */
static PyObject *flatten(PyObject *self, PyObject *args) {
    Py_buffer root;
    PyObject *body;
    CXCursor top;
    if (!PyArg_ParseTuple(args, "y*O", &root, &body) || take_cursor(&root, &top) < 0)
        return NULL;
    Flat flat = {0};
    flat.node_type = node_type;
    flat.ref_type = ref_type;
    flat.kinds = kinds;
    flat.body = body;
    flat.cursors = PyByteArray_FromStringAndSize(NULL, 0);
    flat.refs = PyByteArray_FromStringAndSize(NULL, 0);
    flat.seen_refs = PyDict_New();
    PyObject *out = NULL;
    if (flat.cursors && flat.refs && flat.seen_refs && add(&flat, top) == 0) {
        lib.visitChildren(top, visit, &flat);
        if (!flat.failed) {
            unwrap(&flat);
            out = PyTuple_Pack(3, (PyObject *)flat.root, flat.cursors, flat.refs);
        }
    }
    for (int i = 0; i < flat.files.used; i++)
        Py_DECREF(flat.files.name[i]);
    PyMem_Free(flat.stack);
    PyMem_Free(flat.stack_node);
    PyMem_Free(flat.all);
    Py_XDECREF(flat.root);
    Py_XDECREF(flat.cursors);
    Py_XDECREF(flat.refs);
    Py_XDECREF(flat.seen_refs);
    return out;
}

/* evaluate(cursors: a body's cursors, index) -> int, float or None: what clang's constant evaluator makes of the
 * expression at ``index`` (miner.parse.instances._constant), without a Python cursor object. */
static PyObject *evaluate(PyObject *self, PyObject *args) {
    Py_buffer table;
    Py_ssize_t index;
    if (!PyArg_ParseTuple(args, "y*n", &table, &index))
        return NULL;
    int inside = index >= 0 && (index + 1) * (Py_ssize_t)sizeof(CXCursor) <= table.len;
    CXCursor c;
    if (inside)
        memcpy(&c, (const char *)table.buf + index * sizeof(CXCursor), sizeof c);
    PyBuffer_Release(&table);
    if (!inside) {
        PyErr_SetString(PyExc_IndexError, "no such cursor");
        return NULL;
    }
    if (!bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() first");
        return NULL;
    }
    void *result = lib.Cursor_Evaluate(c);
    if (result == NULL)
        Py_RETURN_NONE;
    PyObject *out;
    switch (lib.EvalResult_getKind(result)) {
    case 1: /* CXEval_Int */
        out = PyLong_FromLongLong(lib.EvalResult_getAsLongLong(result));
        break;
    case 2: /* CXEval_Float */
        out = PyFloat_FromDouble(lib.EvalResult_getAsDouble(result));
        break;
    default:
        out = Py_NewRef(Py_None);
    }
    lib.EvalResult_dispose(result);
    return out;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS, "Look up libclang's functions in the library at this path."},
    {"attributes", attributes, METH_VARARGS, "A function's __global__, __device__ and __host__ attributes, as bits."},
    {"flatten", flatten, METH_VARARGS, "A cursor and everything below it, as nodes."},
    {"evaluate", evaluate, METH_VARARGS, "clang's constant value of a body's expression: int, float or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_flat", NULL, -1, methods};

PyMODINIT_FUNC PyInit__flat(void) {
    if (PyType_Ready(&NodeBase) < 0 || PyType_Ready(&RefBase) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "NodeBase", (PyObject *)&NodeBase) < 0 ||
        PyModule_AddObjectRef(m, "RefBase", (PyObject *)&RefBase) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
