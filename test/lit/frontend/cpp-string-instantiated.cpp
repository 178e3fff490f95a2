// With the plugin, libstdc++'s std::string members that the library
// declares `extern template` are instantiated in the unit (the frontend
// action sets _GLIBCXX_EXTERN_TEMPLATE to -1): _M_append, _M_mutate and
// _M_replace get definitions and clones, and no call inside the region
// goes to a declaration only.
// RUN: %clang -O2 -std=c++17 -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>
#include <string>

std::string text;

void f(const char *s) {
  PTM_BEGIN();
  text.append(s);
  text.replace(0, 1, "xy");
  PTM_END();
}

// CHECK-DAG: define linkonce_odr {{.*}}@_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_appendEPKcm.ptm(
// CHECK-DAG: define linkonce_odr {{.*}}@_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE10_M_replaceEmmPKcm.ptm(
// CHECK-NOT: declare {{.*}}@_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_appendEPKcm(
