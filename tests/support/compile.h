// A domain built in code by a test: compiled, or the test fails with the model's own words;
// and a plan in words, for comparing plans with a golden list.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan::testing {

// A failed compile is reported through gtest, then value() of the failed Result stops the test
// binary (tests build domains they know to be valid).
inline Domain compile_or_die(const DomainDef& def) {
  Result<Domain> d = Domain::compile(def);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().to_string());
  return std::move(d).value();
}

// The plan's action names, in order.
inline std::vector<std::string> names(const Domain& d, const std::vector<ActionId>& plan) {
  std::vector<std::string> out;
  for (ActionId a : plan) out.push_back(d.action_name(a));
  return out;
}

}  // namespace topoplan::testing
