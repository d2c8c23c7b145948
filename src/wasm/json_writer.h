// A minimal streaming JSON writer for the WebAssembly binding (the libraries have no JSON
// dependency; the binding's answers are small objects built once per call, on cold paths).
// Strings are escaped by the simulations' replay writer, so the two cannot drift apart.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/sim/core.h"

namespace topoplan::wasm {

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // The next value is this key's.
  JsonWriter& key(std::string_view k) {
    comma();
    string_literal(k);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view s) {
    comma();
    string_literal(s);
    return *this;
  }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b) {
    comma();
    out_ += b ? "true" : "false";
    return *this;
  }
  JsonWriter& value(int32_t x) { return value(static_cast<int64_t>(x)); }
  JsonWriter& value(int64_t x) {
    comma();
    out_ += std::to_string(x);
    return *this;
  }
  JsonWriter& value(double x) {
    comma();
    if (!std::isfinite(x)) {
      out_ += "null";
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", x);
      out_ += buf;
    }
    return *this;
  }
  JsonWriter& null() {
    comma();
    out_ += "null";
    return *this;
  }
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  [[nodiscard]] const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  JsonWriter& open(char bracket) {
    comma();
    out_ += bracket;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char bracket) {
    out_ += bracket;
    first_.pop_back();
    return *this;
  }
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
  // The one JSON string escaping of the libraries (the replays' writer in topoplan::sim).
  void string_literal(std::string_view s) { sim::ReplayWriter::append_string(out_, s); }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace topoplan::wasm
