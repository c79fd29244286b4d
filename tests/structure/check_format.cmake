# Fails when clang-format would change any C++ file of the product or the tests. Run as
#   cmake -DCLANG_FORMAT=clang-format -DSOURCE_DIR=<repo> -P check_format.cmake
# To fix what it reports: clang-format -i <file> (with the .clang-format at the root).
file(GLOB_RECURSE sources LIST_DIRECTORIES false
    "${SOURCE_DIR}/model/*.h" "${SOURCE_DIR}/model/*.cpp"
    "${SOURCE_DIR}/collector/*.h" "${SOURCE_DIR}/collector/*.cpp"
    "${SOURCE_DIR}/views/*.h" "${SOURCE_DIR}/views/*.cpp"
    "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
    "${SOURCE_DIR}/tests/*.h" "${SOURCE_DIR}/tests/*.cpp")
list(FILTER sources EXCLUDE REGEX "/tests/gpu/")
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run --Werror ${sources}
    RESULT_VARIABLE result ERROR_VARIABLE messages)
if(NOT result EQUAL 0)
    message("${messages}")
    message(FATAL_ERROR "clang-format would change the files above; run clang-format -i on them.")
endif()
list(LENGTH sources count)
message(STATUS "clang-format: ${count} files already formatted")
