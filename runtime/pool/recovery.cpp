//===- recovery.cpp - make a pool consistent after a crash ----------------===//

#include "runtime/pool/recovery.h"

#include "runtime/base/report.h"
#include "runtime/persist/persist.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ptm {
namespace pool {

uint64_t replay_floor(const PoolView &view) {
  uint64_t w = 0;
  for (uint32_t i = 0; i < view.header.slot_count; ++i)
    for (unsigned p = 0; p < kRingParts; ++p) {
      uint64_t f = record_header(*view.slot(i), p).floor;
      if (f > w)
        w = f;
    }
  return w;
}

SlotScan scan_slot(const PoolView &view, uint32_t index, unsigned part,
                   uint64_t floor) {
  SlotScan s;
  s.index = index;
  s.part = part;
  s.begin = ring_part_begin(view.capacity(), part);
  const RecordHeader *hdr = &record_header(*view.slot(index), part);
  uint64_t status = __atomic_load_n(&hdr->status, __ATOMIC_ACQUIRE);
  s.state = status_state(status);
  s.gen = status_gen(status);
  const LogEntry *e = view.entries(index) + s.begin;
  uint64_t cap = view.capacity() - s.begin;
  // Counts the valid entry X (padding records are not entries).
  auto take = [&](const LogEntry &x) {
    s.records += entry_records(x);
    if (entry_kind(x) == kPadEntry)
      return;
    if (!view.is_data(x.addr, entry_span(x)))
      ++s.outside;
    ++s.entries;
  };
  // The valid entries up to the end of the slot (a prefix: appended and
  // fenced one by one; the first invalid one, torn or from an older
  // generation, ends the log).
  auto take_prefix = [&] {
    while (s.records < cap && entry_valid(e[s.records], s.gen, cap - s.records))
      take(e[s.records]);
  };
  // The declared records, all valid: true; else false with s.records at
  // the first invalid entry.
  auto take_declared = [&] {
    while (s.records < s.declared) {
      const LogEntry &x = e[s.records];
      if (!entry_valid(x, s.gen, s.declared - s.records))
        return false;
      take(x);
    }
    return true;
  };
  auto too_long = [&](const char *what) {
    if (s.declared <= cap)
      return false;
    s.damaged = true;
    snprintf(s.problem, sizeof s.problem,
             "thread slot %u: %s of %llu entries exceeds the slot capacity "
             "%llu (record %u)",
             index, what, (unsigned long long)s.declared,
             (unsigned long long)cap, part);
    return true;
  };
  switch (s.state) {
  case kIdle:
    break;
  case kUndoActive:
    take_prefix();
    break;
  case kUndoLogged:
    s.order = hdr->commit_order;
    s.declared = hdr->redo_count;
    if (s.order <= floor) {
      s.superseded = true;
      break;
    }
    if (s.declared == 0) {
      take_prefix();
      break;
    }
    if (too_long("logged undo log"))
      break;
    if (!take_declared()) {
      // The Redo phase drains the entries before its stores: nothing of
      // this transaction was stored.
      s.torn = true;
      snprintf(s.problem, sizeof s.problem,
               "thread slot %u: logged undo entries torn at entry %llu "
               "(generation %llu): never drained, nothing stored: discarded",
               index, (unsigned long long)s.records, (unsigned long long)s.gen);
    }
    break;
  case kRedoCommitted:
  case kRedoSealed:
    s.order = hdr->commit_order;
    s.declared = hdr->redo_count;
    if (s.order <= floor) { // its data are durable: its part may be reused
      s.superseded = true;
      break;
    }
    if (too_long("committed redo log"))
      break;
    if (!take_declared()) {
      // Sealed: the commit's one fence never completed. Committed: the
      // entries were fenced before the status, so this is damage.
      bool sealed = s.state == kRedoSealed;
      (sealed ? s.torn : s.damaged) = true;
      snprintf(s.problem, sizeof s.problem,
               sealed ? "thread slot %u: sealed commit torn at entry %llu "
                        "(generation %llu): never acknowledged, discarded"
                      : "thread slot %u: entry %llu of its committed redo "
                        "log (generation %llu) is damaged",
               index, (unsigned long long)s.records, (unsigned long long)s.gen);
    }
    break;
  default:
    s.damaged = true;
    snprintf(s.problem, sizeof s.problem,
             "thread slot %u: unknown state %u in its status word", index,
             unsigned(s.state));
  }
  return s;
}

std::vector<SlotScan> pending_slots(const PoolView &view) {
  std::vector<SlotScan> out;
  uint64_t floor = replay_floor(view);
  for (uint32_t i = 0; i < view.header.slot_count; ++i)
    for (unsigned p = 0; p < kRingParts; ++p) {
      SlotScan s = scan_slot(view, i, p, floor);
      if (s.state != kIdle || s.damaged)
        out.push_back(s);
    }
  return out;
}

namespace {

// Writes the masked bytes (or the chunk) of E to memory and writes the line
// back.
void apply(const LogEntry &e) {
  if (entry_kind(e) == kChunkEntry) {
    memcpy(reinterpret_cast<void *>(e.addr), chunk_bytes(e), e.data);
    persist::clwb(reinterpret_cast<void *>(e.addr));
    return;
  }
  auto *word = reinterpret_cast<unsigned char *>(e.addr);
  uint8_t mask = uint8_t(e.meta & 0xff);
  if (mask == 0xff) {
    memcpy(word, &e.data, 8);
  } else {
    unsigned char bytes[8];
    memcpy(bytes, &e.data, 8);
    for (int i = 0; i < 8; ++i)
      if (mask & (1u << i))
        word[i] = bytes[i];
  }
  persist::clwb(word);
}

void mark_idle(const PoolView &view, const SlotScan &s) {
  RecordHeader &h = record_header(*view.slot(s.index), s.part);
  __atomic_store_n(&h.status, slot_status(kIdle, s.gen), __ATOMIC_RELEASE);
  persist::clwb(&h.status);
  persist::sfence();
}

// Every record idle: the floors go back to 0 (the commit orders of the next
// session start again from 1).
void clear_floors(const PoolView &view) {
  bool any = false;
  for (uint32_t i = 0; i < view.header.slot_count; ++i)
    for (unsigned p = 0; p < kRingParts; ++p) {
      RecordHeader &h = record_header(*view.slot(i), p);
      if (h.floor == 0)
        continue;
      h.floor = 0;
      persist::clwb(&h.floor);
      any = true;
    }
  if (any)
    persist::sfence();
}

} // namespace

void settle_at_close(const PoolView &view) {
  bool any = false;
  for (uint32_t i = 0; i < view.header.slot_count; ++i) {
    SlotHeader &h = *view.slot(i);
    if (status_state(h.status) != kUndoLogged)
      continue;
    __atomic_store_n(&h.status, slot_status(kIdle, status_gen(h.status)),
                     __ATOMIC_RELEASE);
    persist::clwb(&h.status);
    any = true;
  }
  if (any)
    persist::sfence();
  clear_floors(view);
}

int recover(const PoolView &view, const char *path, RecoveryStats *stats,
            uint64_t max_entries) {
  std::vector<SlotScan> pending = pending_slots(view);
  for (const SlotScan &s : pending)
    if (s.damaged) {
      error("%s: %s; the pool cannot be recovered", path, s.problem);
      return -EIO;
    }
  RecoveryStats local;
  RecoveryStats &st = stats ? *stats : local;
  uint64_t budget = max_entries;

  // Uncommitted eager transactions and crafty's logs above the floor:
  // restore the old values, newest first (the logs by commit order, largest
  // first; eager logs, whose write sets are disjoint, have order 0).
  std::vector<SlotScan> undo;
  for (const SlotScan &s : pending)
    if (s.state == kUndoActive ||
        (s.state == kUndoLogged && !s.torn && !s.superseded))
      undo.push_back(s);
  std::sort(undo.begin(), undo.end(), [](const SlotScan &a, const SlotScan &b) {
    if (a.order != b.order)
      return a.order > b.order;
    return a.index < b.index;
  });
  for (const SlotScan &s : undo) {
    std::vector<const LogEntry *> order;
    for_each_entry(view, s, [&](const LogEntry &x) { order.push_back(&x); });
    for (size_t i = order.size(); i-- > 0;) {
      if (!view.is_data(order[i]->addr, entry_span(*order[i])))
        continue;
      if (budget == 0)
        return 0; // simulated crash
      --budget;
      apply(*order[i]);
      ++st.entries;
    }
    persist::sfence();
    mark_idle(view, s);
    ++st.undone;
  }

  // Torn sealed commits: nothing of theirs reached memory; forget them.
  // Records at or below the replay floor: their data are durable.
  for (const SlotScan &s : pending)
    if (s.torn || s.superseded) {
      mark_idle(view, s);
      ++(s.torn ? st.discarded : st.superseded);
    }

  // Committed lazy transactions: write back, oldest commit first.
  std::vector<SlotScan> redo;
  for (const SlotScan &s : pending)
    if (is_redo_state(s.state) && !s.torn && !s.superseded)
      redo.push_back(s);
  std::sort(redo.begin(), redo.end(), [](const SlotScan &a, const SlotScan &b) {
    return a.order < b.order;
  });
  for (const SlotScan &s : redo) {
    bool cut = false;
    for_each_entry(view, s, [&](const LogEntry &x) {
      if (cut || !view.is_data(x.addr, entry_span(x)))
        return;
      if (budget == 0) {
        cut = true;
        return;
      }
      --budget;
      apply(x);
      ++st.entries;
    });
    if (cut)
      return 0;
    persist::sfence();
    mark_idle(view, s);
    ++st.replayed;
  }
  clear_floors(view);
  return 0;
}

} // namespace pool
} // namespace ptm
