/* A CPython extension module that calls back into Python, built without frame pointers
 * (-O2 -fomit-frame-pointer) by check_python_stacks.py: `call(f)` returns f(). A profiler must
 * unwind through this native code, which keeps no frame pointer, to find who called f. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static long g_calls;

static PyObject* call(PyObject* self, PyObject* function)
{
    (void)self;
    PyObject* result = PyObject_CallObject(function, NULL);
    if (!result) return NULL;
    ++g_calls; /* work after the call keeps it a call, never a jump */
    return result;
}

static PyObject* calls(PyObject* self, PyObject* unused)
{
    (void)self;
    (void)unused;
    return PyLong_FromLong(g_calls);
}

static PyMethodDef g_methods[] = {
    {"call", call, METH_O, "call(f): returns f(), called from native code without frame pointers"},
    {"calls", calls, METH_NOARGS, "calls(): how many calls returned"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef g_module = {PyModuleDef_HEAD_INIT, "sightline_callback", NULL, -1, g_methods};

PyMODINIT_FUNC PyInit_sightline_callback(void)
{
    return PyModule_Create(&g_module);
}
