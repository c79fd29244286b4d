// The Call Stacks view on a profile shaped like a PyTorch program's (Python frames over
// libtorch, CUDA runtime and libc), rendered as a user sees it. With SIGHTLINE_SHOTS_DIR set,
// the bottom-up table and the flame graph are saved there as PNG files for a look by eye.
#include "callstack_shots.h"
#include "model/construct/trace_builder.h"
#include "views/callstack/call_stack_view.h"
#include "views/callstack/call_tree_model.h"
#include "views/callstack/flame_graph.h"

#include <QImage>
#include <QSet>
#include <QTest>
#include <QTreeView>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::views;
using sightline::test::colourCount;

namespace {

struct Path
{
    std::vector<std::pair<const char*, const char*>> frames; // outermost first: function, module
    int weight;
    uint32_t tid;
};

Trace pytorchLikeTrace()
{
    const std::pair<const char*, const char*> start {"_start", "python3.11"},
        libcMain {"__libc_start_main", "libc.so.6"}, main {"main", "python3.11"},
        runMain {"Py_RunMain", "libpython3.11.so"}, eval {"_PyEval_EvalFrameDefault", "libpython3.11.so"},
        call {"_PyFunction_Vectorcall", "libpython3.11.so"}, thread {"start_thread", "libc.so.6"};
    const std::vector<Path> paths {
        {{start, libcMain, main, runMain, eval, call, eval, {"at::native::addmm_out", "libtorch_cpu.so"},
             {"at::native::cpublas::gemm", "libtorch_cpu.so"}, {"sgemm_kernel_haswell", "libopenblas.so.0"}},
            30, 1},
        {{start, libcMain, main, runMain, eval, call, eval, {"at::native::add_kernel", "libtorch_cpu.so"},
             {"at::vec::vectorized_loop", "libtorch_cpu.so"}},
            10, 1},
        {{start, libcMain, main, runMain, eval, {"torch::autograd::backward", "libtorch_cpu.so"},
             {"at::native::mm_cuda", "libtorch_cuda.so"}, {"cudaLaunchKernel", "libcudart.so.12"},
             {"cuLaunchKernel", "libcuda.so.1"}, {"ioctl", "libc.so.6"}},
            12, 1},
        {{start, libcMain, main, runMain, eval, call, {"cudaMemcpyAsync", "libcudart.so.12"},
             {"cuMemcpyHtoDAsync_v2", "libcuda.so.1"}, {"__memmove_avx_unaligned_erms", "libc.so.6"}},
            15, 1},
        {{start, libcMain, main, runMain, eval, {"_PyObject_Malloc", "libpython3.11.so"}}, 5, 1},
        {{start, libcMain, main, runMain, eval, call, eval, eval,
             {"_PyDict_GetItem_KnownHash", "libpython3.11.so"}},
            4, 1},
        {{start, libcMain, main, {"Py_FinalizeEx", "libpython3.11.so"},
             {"gc_collect_main", "libpython3.11.so"}},
            3, 1},
        {{thread, {"c10::ThreadPool::main_loop", "libc10.so"},
             {"at::internal::invoke_parallel", "libtorch_cpu.so"},
             {"sgemm_kernel_haswell", "libopenblas.so.0"}},
            15, 2},
        {{thread, {"c10::ThreadPool::main_loop", "libc10.so"}, {"pthread_cond_wait", "libc.so.6"},
             {"futex_wait", "[kernel.kallsyms]"}},
            6, 2},
    };
    TraceBuilder b;
    b.addProcess({Pid(7), "python3.11", {}});
    b.addThread({Pid(7), Tid(1), "python3.11"});
    b.addThread({Pid(7), Tid(2), "pt_threadpool"});
    Timestamp time = 0;
    for (const Path& path : paths) {
        uint32_t node = kNoCallStack;
        for (const auto& [function, module] : path.frames)
            node = b.cpuStackChild(node, b.cpuFrame({b.intern(function), b.intern(module), 0, false}));
        for (int i = 0; i < path.weight * 100; ++i)
            b.addCpuSample({time += 1000, Tid(path.tid), node, 0});
    }
    return b.build(1);
}

} // namespace

TEST_CASE("a PyTorch-like profile renders as tables and a flame graph")
{
    CallStackView view;
    view.resize(1100, 560);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    view.setTrace(std::make_shared<const Trace>(pytorchLikeTrace()));
    REQUIRE(QTest::qWaitFor([&] { return !view.isBusy() && view.trees(); }, 30000));
    CHECK(view.trees()->samples == 10000);

    QTreeView* bottomUp = view.treeView(CallStackView::Tab::BottomUp);
    CHECK(bottomUp->model()->index(0, CallTreeModel::FunctionColumn).data().toString()
        == QStringLiteral("sgemm_kernel_haswell"));
    CHECK(bottomUp->model()->index(0, CallTreeModel::SelfPercentColumn).data().toString()
        == QStringLiteral("45.0 %"));
    test::expandFetching(*bottomUp, bottomUp->model()->index(0, 0), 3);
    CHECK(bottomUp->model()->rowCount(bottomUp->model()->index(0, 0)) > 0);
    const QImage table = test::shot(view);
    CHECK(colourCount(table) > 4);
    test::saveShot(table, "bottom-up.png");

    view.showTab(CallStackView::Tab::TopDown);
    test::saveShot(test::shot(view), "top-down.png");

    view.showTab(CallStackView::Tab::FlameGraph);
    REQUIRE(QTest::qWaitForWindowExposed(view.flameGraph()));
    const QImage flame = test::shot(view);
    CHECK(colourCount(flame) > 8);
    test::saveShot(flame, "flame-graph.png");

    // Zoomed into the Python interpreter's frame under Py_RunMain.
    FlameGraph* graph = view.flameGraph();
    const int row = graph->fontMetrics().height() + 6;
    QTest::mouseClick(graph, Qt::LeftButton, {}, QPoint(20, 5 * row + row / 2));
    CHECK(
        graph->toolTipAt(QPoint(20, 5 * row + row / 2)).contains(QStringLiteral("_PyEval_EvalFrameDefault")));
    test::saveShot(test::shot(view), "flame-graph-zoomed.png");
}
