# bench_events: the Events View's listing, sort and filter over 1M and 10M rows, the summary
# stats, the Events View's first paint and the Analysis Summary's refresh. Included by
# tests/bench/CMakeLists.txt; needs the viewer.
if(SIGHTLINE_BUILD_GUI AND NOT TARGET bench_events)
    add_executable(bench_events ${CMAKE_CURRENT_LIST_DIR}/bench_events.cpp ${CMAKE_CURRENT_LIST_DIR}/bench_support.cpp)
    target_link_libraries(bench_events PRIVATE sightline_views sightline_generator sightline_warnings)
    set_target_properties(bench_events PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endif()
