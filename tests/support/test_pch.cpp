// The source of topoplan_test_pch (tests/CMakeLists.txt), the target that compiles gtest.h once
// as a precompiled header for every test executable; it defines nothing.
