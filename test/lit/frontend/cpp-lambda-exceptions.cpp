// ptm::atomic with a lambda returning a value, at -O2 with exceptions: the
// lambda body (inlined) is instrumented inside a transaction.
// RUN: %clangxx -O2 -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

long balance;

long deposit(long amount) {
  return ptm::atomic([&] { balance += amount; return balance; });
}

// CHECK-LABEL: define dso_local noundef i64 @_Z7depositl(
// CHECK:      call void @__ptm_tx_begin(
// CHECK:      call i64 @__ptm_read_8(ptr nonnull @balance)
// CHECK:      call void @__ptm_write_8(ptr nonnull @balance,
// CHECK:      call i32 @__ptm_tx_commit()
