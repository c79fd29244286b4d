# Warning flags shared by every Sightline target; SIGHTLINE_WERROR turns them into errors (CI).
add_library(sightline_warnings INTERFACE)
target_compile_options(sightline_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                       -Wno-missing-field-initializers)
if(SIGHTLINE_WERROR)
    target_compile_options(sightline_warnings INTERFACE -Werror)
endif()
