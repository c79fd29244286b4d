# bench_import: import speed and peak memory for a generated 1 GB Chrome trace JSON (and its
# gzip) and a generated 10M-row Nsight Systems SQLite, beside python3 json.load and the sqlite3
# CLI. Included from tests/bench/CMakeLists.txt. Run build/bin/bench_import; asserts nothing.
add_executable(bench_import ${CMAKE_CURRENT_LIST_DIR}/bench_import.cpp ${CMAKE_CURRENT_LIST_DIR}/bench_support.cpp
    ${CMAKE_CURRENT_LIST_DIR}/child_runs.cpp)
target_link_libraries(bench_import PRIVATE sightline_generator sightline_model sightline_warnings ZLIB::ZLIB)
target_compile_definitions(bench_import PRIVATE SIGHTLINE_BINARY_DIR="${PROJECT_BINARY_DIR}")
set_target_properties(bench_import PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
