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
  // A speculative log takes the whole slot: its other record headers are
  // not used, whatever they say.
  if (part != 0 &&
      status_state(__atomic_load_n(&view.slot(index)->status,
                                   __ATOMIC_ACQUIRE)) == kRedoStream) {
    s.state = kIdle;
    return s;
  }
  // A committed record at or below the floor is superseded before its log
  // is looked at: its extension may be pool memory again (the persister's
  // records, runtime/pool/persister.cpp).
  if ((s.state == kUndoLogged || s.state == kRedoCommitted ||
       s.state == kRedoSealed) &&
      hdr->commit_order <= floor) {
    s.order = hdr->commit_order;
    s.declared = hdr->redo_count;
    s.superseded = true;
    return s;
  }
  uint64_t cap = view.capacity() - s.begin;
  const LogEntry *e = view.entries(index) + s.begin;
  if (part == 0 && s.state != kIdle && s.state != kRedoStream) {
    e = view.record0(index, &cap);
    if (!e) {
      s.damaged = true;
      snprintf(s.problem, sizeof s.problem,
               "thread slot %u: its log extension link (offset %llu) names "
               "no log extension of the slot",
               index, (unsigned long long)view.slot(index)->log_ext);
      return s;
    }
  }
  s.log = e;
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
             "thread slot %u: %s of %llu entries exceeds the log capacity "
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
  case kRedoStream:
    // Its records are found by stream_records; the epoch tells this
    // stream's from older ones, and no stream has epoch 0.
    if (part != 0) {
      s.damaged = true;
      snprintf(s.problem, sizeof s.problem,
               "thread slot %u: record %u has the speculative log state "
               "(only record 0 may)",
               index, part);
      break;
    }
    s.epoch = view.slot(index)->stream_epoch;
    if (s.epoch == 0) {
      s.damaged = true;
      snprintf(s.problem, sizeof s.problem,
               "thread slot %u: speculative log with epoch 0", index);
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

namespace {

// Every valid record of slot INDEX's speculative log, whatever its order,
// in slot order (none if the slot holds no speculative log of a nonzero
// epoch). A record is a head line (head entry, sum entry) at an even record
// K and R body records; it is valid if the head is whole, of the slot's
// epoch, its body fits the slot, every body entry is whole and of the
// head's generation (the record's commit order) and the sum is theirs. An
// invalid record (torn: its fence never completed; stale: an older epoch)
// is skipped one line at a time, so the scan finds the next record after
// it.
std::vector<StreamRecord> scan_stream(const PoolView &view, uint32_t index) {
  std::vector<StreamRecord> out;
  const SlotHeader &h = *view.slot(index);
  uint64_t status = __atomic_load_n(&h.status, __ATOMIC_ACQUIRE);
  uint64_t epoch = h.stream_epoch;
  if (status_state(status) != kRedoStream || epoch == 0)
    return out;
  const LogEntry *e = view.entries(index);
  uint64_t cap = view.capacity();
  for (uint64_t k = 0; k + 2 <= cap;) {
    const LogEntry &head = e[k];
    uint64_t order = head.meta >> 8;
    uint64_t body = head.data & 0xffffffffull;
    uint64_t end = k + 2 + body;
    const LogEntry &sum = e[k + 1];
    bool valid = entry_kind(head) == kHeadEntry && entry_valid(head, order) &&
                 (head.data >> 32) == epoch && end <= cap &&
                 entry_kind(sum) == kSumEntry && entry_valid(sum, order);
    StreamRecord r;
    for (uint64_t i = k + 2; valid && i < end; i += entry_records(e[i])) {
      if (!entry_valid(e[i], order, end - i))
        valid = false;
      else if (entry_kind(e[i]) == kDepEntry)
        r.deps.push_back(e[i].data);
    }
    if (!valid || sum.data != stream_body_sum(e + k + 2, body)) {
      k += 2;
      continue;
    }
    r.index = index;
    r.begin = k + 2;
    r.records = body;
    r.order = order;
    out.push_back(std::move(r));
    k = (end + 1) & ~1ull;
  }
  return out;
}

// The entries of a speculative record that write user data (word and chunk
// entries; not pads, heads or deps).
template <class F>
void for_each_stream_entry(const PoolView &view, const StreamRecord &r, F f) {
  const LogEntry *e = view.entries(r.index) + r.begin;
  for (uint64_t i = 0; i < r.records; i += entry_records(e[i])) {
    EntryKind kind = entry_kind(e[i]);
    if (kind == kWordEntry || kind == kChunkEntry)
      f(e[i]);
  }
}

} // namespace

std::vector<StreamRecord> stream_records(const PoolView &view, uint32_t index,
                                         uint64_t floor) {
  std::vector<StreamRecord> out = scan_stream(view, index);
  out.erase(
      std::remove_if(out.begin(), out.end(),
                     [&](const StreamRecord &r) { return r.order <= floor; }),
      out.end());
  return out;
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

// Every record idle: no log extension is needed; the links go (the heap
// may hand their memory out again).
void clear_links(const PoolView &view) {
  bool any = false;
  for (uint32_t i = 0; i < view.header.slot_count; ++i) {
    SlotHeader &h = *view.slot(i);
    if (h.log_ext == 0)
      continue;
    __atomic_store_n(&h.log_ext, uint64_t(0), __ATOMIC_RELEASE);
    persist::clwb(&h.log_ext);
    any = true;
  }
  if (any)
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
    uint8_t state = status_state(h.status);
    if (state != kUndoLogged && state != kRedoStream)
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

  // Speculative logs (sp3): the valid records above the floor, kept when
  // every order they depend on is at or below the floor or that of a kept
  // record (a dependency is older than its dependent: one pass in commit
  // order), else dropped: a transaction they read from never became
  // durable, so they were never acknowledged.
  uint64_t floor = replay_floor(view);
  uint64_t top = floor; // the largest commit order of a record above it
  std::vector<const SlotScan *> streams;
  std::vector<StreamRecord> spec;
  for (const SlotScan &s : pending) {
    if (s.state != kRedoStream)
      continue;
    streams.push_back(&s);
    for (StreamRecord &r : scan_stream(view, s.index)) {
      if (r.order <= floor) {
        ++st.superseded;
        continue;
      }
      top = std::max(top, r.order);
      spec.push_back(std::move(r));
    }
  }
  std::sort(spec.begin(), spec.end(),
            [](const StreamRecord &a, const StreamRecord &b) {
              if (a.order != b.order)
                return a.order < b.order;
              return a.index != b.index ? a.index < b.index : a.begin < b.begin;
            });
  std::vector<uint64_t> kept_orders; // ascending
  std::vector<const StreamRecord *> kept;
  for (const StreamRecord &r : spec) {
    bool ok = std::all_of(r.deps.begin(), r.deps.end(), [&](uint64_t d) {
      return d <= floor ||
             std::binary_search(kept_orders.begin(), kept_orders.end(), d);
    });
    if (!ok) {
      ++st.dropped;
      continue;
    }
    kept.push_back(&r);
    if (kept_orders.empty() || kept_orders.back() != r.order)
      kept_orders.push_back(r.order);
  }

  // Committed lazy transactions and kept speculative records: write back,
  // oldest commit first.
  struct Replay {
    uint64_t order;
    size_t seq;               // ties: committed records first, then slots
    const SlotScan *scan;     // a committed record, or
    const StreamRecord *spec; // a speculative one
  };
  std::vector<Replay> redo;
  for (const SlotScan &s : pending)
    if (is_redo_state(s.state) && !s.torn && !s.superseded) {
      redo.push_back({s.order, redo.size(), &s, nullptr});
      top = std::max(top, s.order);
    }
  for (const StreamRecord *r : kept)
    redo.push_back({r->order, redo.size(), nullptr, r});
  std::sort(redo.begin(), redo.end(), [](const Replay &a, const Replay &b) {
    return a.order != b.order ? a.order < b.order : a.seq < b.seq;
  });
  // With a speculative log, a committed record may not go idle before the
  // speculative records older than it are replayed for the last time: a
  // second run would replay those over its data. So nothing goes idle
  // until everything is replayed.
  bool deferred = !streams.empty();
  for (const Replay &r : redo) {
    bool cut = false;
    auto write = [&](const LogEntry &x) {
      if (cut || !view.is_data(x.addr, entry_span(x)))
        return;
      if (budget == 0) {
        cut = true;
        return;
      }
      --budget;
      apply(x);
      ++st.entries;
    };
    if (r.scan)
      for_each_entry(view, *r.scan, write);
    else
      for_each_stream_entry(view, *r.spec, write);
    if (cut)
      return 0;
    persist::sfence();
    if (r.scan && !deferred)
      mark_idle(view, *r.scan);
    ++st.replayed;
  }
  if (deferred) {
    // Everything replayed is durable: a floor at the largest order seen
    // makes every record superseded for a run after a crash from here on
    // (which then writes nothing: the logs go idle in any order). Its
    // place: the first speculative log's record header 0, retired below.
    if (top > floor) {
      RecordHeader &h = record_header(*view.slot(streams[0]->index), 0);
      h.floor = top;
      persist::clwb(&h.floor);
      persist::sfence();
    }
    for (const Replay &r : redo)
      if (r.scan)
        mark_idle(view, *r.scan);
    // Retired: idle, the epoch kept in stream_epoch (the slot's next
    // stream takes the next one). The record headers the stream did not
    // use go idle first, so nothing they say is looked at once the slot
    // is no longer a speculative log.
    for (const SlotScan *s : streams) {
      SlotHeader &h = *view.slot(s->index);
      bool parts = false;
      for (unsigned p = 1; p < kRingParts; ++p) {
        RecordHeader &r = record_header(h, p);
        if (status_state(r.status) == kIdle)
          continue;
        __atomic_store_n(&r.status, slot_status(kIdle, status_gen(r.status)),
                         __ATOMIC_RELEASE);
        persist::clwb(&r.status);
        parts = true;
      }
      if (parts)
        persist::sfence();
      mark_idle(view, *s);
    }
  }
  clear_floors(view);
  clear_links(view);
  return 0;
}

} // namespace pool
} // namespace ptm
