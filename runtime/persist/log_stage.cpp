//===- log_stage.cpp - a thread's stage: allocated, released -------------===//

#include "runtime/persist/log_stage.h"

#include <cstdlib>

namespace ptm {

void LogStage::attach(pool::SlotHandle &s) {
  static_assert(sizeof(pool::LogEntry) * 2 == persist::kLineSize,
                "two records per line");
  size_t bytes = s.slot_capacity * sizeof(pool::LogEntry);
  bytes = (bytes + persist::kLineSize - 1) & ~(persist::kLineSize - 1);
  auto *stage =
      static_cast<pool::LogEntry *>(aligned_alloc(persist::kLineSize, bytes));
  if (!stage)
    return; // (records stay in the slot)
  s.entries = stage + (s.entries - s.slot_entries);
  s.stage = stage;
}

void LogStage::release(pool::SlotHandle &s) {
  if (!s.stage)
    return;
  s.entries = s.slot_entries + (s.entries - s.stage);
  free(s.stage);
  s.stage = nullptr;
}

} // namespace ptm
