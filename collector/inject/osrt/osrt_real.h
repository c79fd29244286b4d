// The real functions behind our OS-runtime wrappers, resolved with dlsym(RTLD_NEXT) (or dlvsym
// when a symbol has several versions, as pthread_cond_* do) on first use. Resolution is lazy
// because a wrapper can run before our constructor (another library's constructor calling
// read()); a race only resolves the same pointer twice. Constant-initialised: no guard
// variables, no locks.
#pragma once

#include <atomic>
#include <cerrno>

// RealFunction<decltype(read)> names libc's own declaration; GCC notes that the declaration's
// nonnull/warn_unused_result attributes do not carry into the template argument, which is fine.
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace sightline::inject::osrt {

void* resolveNext(const char* name, const char* version);

#if defined(__aarch64__)
inline constexpr const char* kCondVersion = "GLIBC_2.17";
#else
inline constexpr const char* kCondVersion = "GLIBC_2.3.2";
#endif

template <class Fn> class RealFunction
{
public:
    constexpr RealFunction(const char* name, const char* version = nullptr)
        : m_name(name)
        , m_version(version)
    { }

    Fn* get()
    {
        Fn* fn = m_pointer.load(std::memory_order_relaxed);
        if (!fn) [[unlikely]] {
            fn = reinterpret_cast<Fn*>(resolveNext(m_name, m_version));
            m_pointer.store(fn, std::memory_order_relaxed);
        }
        return fn;
    }

private:
    std::atomic<Fn*> m_pointer {nullptr};
    const char* m_name;
    const char* m_version;
};

} // namespace sightline::inject::osrt
