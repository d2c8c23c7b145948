// topoplan — Result<T>: a value or an error that says what went wrong and where.
//
// Runtime conditions and bad input are reported through Result; programmer mistakes
// (out-of-range ids passed to accessors) are asserts. No exceptions cross the public API.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace topoplan {

// An error with an optional source location. `to_string()` gives the classic
// "file:line: message" form used by compilers, so editors can jump to it.
struct Error {
  std::string message;
  std::string file;  // empty when the error does not come from a file
  int line = 0;      // 1-based; 0 when unknown

  [[nodiscard]] std::string to_string() const {
    if (file.empty()) return message;
    if (line <= 0) return file + ": " + message;
    return file + ":" + std::to_string(line) + ": " + message;
  }
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(data_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  [[nodiscard]] const Error& error() const {
    assert(!ok());
    return std::get<1>(data_);
  }

 private:
  std::variant<T, Error> data_;
};

}  // namespace topoplan
