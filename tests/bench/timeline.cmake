# bench_timeline: the timeline's frame time (layout + paint) at 1920x1080 for generated reports
# of 1M, 10M and 100M events. Included by tests/bench/CMakeLists.txt; needs the viewer.
if(SIGHTLINE_BUILD_GUI)
    add_executable(bench_timeline ${CMAKE_CURRENT_LIST_DIR}/bench_timeline.cpp ${CMAKE_CURRENT_LIST_DIR}/bench_support.cpp
        ${CMAKE_CURRENT_LIST_DIR}/timeline_frames.cpp)
    target_link_libraries(bench_timeline PRIVATE sightline_views sightline_generator sightline_warnings)
    set_target_properties(bench_timeline PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endif()
# bench_first_paint: time to the first frame of the whole timeline, from a report's overview.
if(SIGHTLINE_BUILD_GUI)
    add_executable(bench_first_paint ${CMAKE_CURRENT_LIST_DIR}/bench_first_paint.cpp ${CMAKE_CURRENT_LIST_DIR}/bench_support.cpp
        ${CMAKE_CURRENT_LIST_DIR}/timeline_frames.cpp)
    target_link_libraries(bench_first_paint PRIVATE sightline_views sightline_warnings)
    set_target_properties(bench_first_paint PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endif()
# bench_track_events: the Events View of a report's largest track, listed and sorted from the file.
if(SIGHTLINE_BUILD_GUI)
    add_executable(bench_track_events ${CMAKE_CURRENT_LIST_DIR}/bench_track_events.cpp ${CMAKE_CURRENT_LIST_DIR}/bench_support.cpp)
    target_link_libraries(bench_track_events PRIVATE sightline_views sightline_warnings)
    set_target_properties(bench_track_events PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endif()
