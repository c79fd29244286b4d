# Warning flags shared by every Sightline target; SIGHTLINE_WERROR turns them into errors (CI).
add_library(sightline_warnings INTERFACE)
target_compile_options(sightline_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                       -Wno-missing-field-initializers)
# GCC 12 reports -Wrestrict for `"literal" + std::string&&` at -O2/-O3 (GCC bug 105329, a
# false positive inside libstdc++'s basic_string::insert), so that check is off there.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(sightline_warnings INTERFACE -Wno-restrict)
endif()
if(SIGHTLINE_WERROR)
    target_compile_options(sightline_warnings INTERFACE -Werror)
endif()
