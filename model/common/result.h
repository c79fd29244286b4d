// The one error idiom of the model, the collector and the app: a Result<T> holds a value or one
// user-facing error sentence (which file, what is wrong, what to do); Status (Result<void>)
// is success or that sentence, for operations that produce nothing but a file or a change.
// No exception crosses the model's public API: code that throws inside (the streaming JSON
// reader, SQLite wrappers) catches at its entry point and returns the sentence.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace sightline {

template <class T> class Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    { }
    static Result failure(std::string message)
    {
        Result r;
        r.m_error = std::move(message);
        return r;
    }

    explicit operator bool() const { return m_value.has_value(); }
    T& value() { return *m_value; }
    const T& value() const { return *m_value; }
    T* operator->() { return &*m_value; }
    const T* operator->() const { return &*m_value; }
    const std::string& error() const { return m_error; }

private:
    Result() = default;
    std::optional<T> m_value;
    std::string m_error;
};

template <> class Result<void>
{
public:
    Result() = default; // success
    static Result failure(std::string message)
    {
        Result r;
        r.m_error = std::move(message);
        return r;
    }

    bool ok() const { return m_error.empty(); }
    explicit operator bool() const { return ok(); }
    const std::string& error() const { return m_error; } // "" on success

private:
    std::string m_error;
};

using Status = Result<void>;

} // namespace sightline
