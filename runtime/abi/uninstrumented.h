//===- uninstrumented.h - code the plugin did not instrument ----*- C++ -*-===//
//
// Uninstrumented<P>: what a transaction does when it meets code it cannot
// run through barriers: a construct the plugin reported (__ptm_unsupported),
// a call whose transactional clone is missing (__ptm_clone_lookup misses),
// or PTM_BEGIN/PTM_END compiled without the plugin (__ptm_region_*). Each
// makes the transaction irrevocable after a once-per-site warning, or stops
// the program where that is impossible. A clone lookup that hits is a fast
// path.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_UNINSTRUMENTED_H
#define PTM_RUNTIME_ABI_UNINSTRUMENTED_H

#include "runtime/abi/clone_table.h"
#include "runtime/abi/describe.h"
#include "runtime/abi/tx_boundary.h"
#include "runtime/base/events.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"

#include <cstdio>

namespace ptm {

template <class P> struct Uninstrumented {
  using Tx = TxBoundary<P>;

  // ---- Irrevocability -----------------------------------------------------

  // Makes the running transaction irrevocable because of WHAT at WHERE (a
  // construct of KIND that cannot be instrumented), after a once-per-site
  // warning; fatal with PTM_UNSUPPORTED=error or if P cannot serialize.
  static PTM_SLOW void run_uninstrumented(TxThread &tx, int kind,
                                          const char *what, const char *where,
                                          const void *site_detail) {
    const char *site = where ? where : "?";
    if (unsupported_is_fatal())
      fatal("%s: %s (%s) cannot run inside a transaction "
            "(PTM_UNSUPPORTED=error)%s",
            site, what, unsupported_kind_name(kind), unsupported_remedy(kind));
    if (tx.depth > 0 && !tx.irrevocable) {
      if (!P::become_irrevocable(tx))
        fatal("%s: %s (%s) cannot run inside a transaction of library '%s'%s",
              site, what, unsupported_kind_name(kind), PTM_LIBNAME,
              unsupported_remedy(kind));
      tx.irrevocable = true;
      tx.irrevocable_why = where;
      P::on_event(tx, Event::Irrevocable, 0);
    }
    if (first_time_at(site, site_detail))
      warning("%s: %s (%s) has no transactional version: it runs "
              "uninstrumented and the transaction becomes irrevocable%s",
              site, what, unsupported_kind_name(kind),
              unsupported_remedy(kind));
  }

  static void unsupported(int kind, const char *what, const char *where) {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::Unsupported, static_cast<uintptr_t>(kind));
    run_uninstrumented(tx, kind, what ? what : "construct", where, what);
  }

  // ---- Clones ---------------------------------------------------------------

  static PTM_INLINE void *clone_lookup(const void *fn, const char *where) {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::CloneLookup, reinterpret_cast<uintptr_t>(fn));
    if (const void *clone = find_clone(fn))
      return const_cast<void *>(clone);
    return clone_miss(tx, fn, where);
  }

  static PTM_SLOW void *clone_miss(TxThread &tx, const void *fn,
                                   const char *where) {
    P::on_event(tx, Event::CloneMiss, reinterpret_cast<uintptr_t>(fn));
    if (!fn)
      fatal("%s: call through a null function pointer in a transaction",
            where ? where : "?");
    char name[256];
    char what[300];
    snprintf(what, sizeof what, "call of %s",
             describe_function(fn, name, sizeof name));
    run_uninstrumented(tx, PTM_UNSUPPORTED_CALL, what, where, fn);
    return const_cast<void *>(fn);
  }

  static void register_clones(const ptm_clone_entry_t *table, size_t n) {
    ptm::register_clones(table, n);
    P::on_event(this_thread(), Event::CloneRegistered, n);
  }

  // ---- Region markers (code compiled without the plugin) --------------------

  static void region_begin() {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::RegionBegin, 0);
    static const char kWhere[] = "PTM_BEGIN compiled without the plugin";
    if (tx.depth++ > 0) {
      // Uninstrumented code inside a transaction: it cannot be undone.
      if (!tx.irrevocable) {
        if (!P::become_irrevocable(tx))
          fatal("%s inside a transaction of library '%s'", kWhere, PTM_LIBNAME);
        tx.irrevocable = true;
        tx.irrevocable_why = kWhere;
        P::on_event(tx, Event::Irrevocable, 0);
      }
      return;
    }
    Tx::start(tx, kWhere, nullptr, /*irrevocable=*/true);
  }

  static void region_end() {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::RegionEnd, 0);
    if (tx.depth <= 0)
      fatal("PTM_END without a matching PTM_BEGIN");
    Tx::commit();
  }

  // An exception leaves a region that began at depth D.
  static void region_unwind(int d) noexcept {
    TxThread &tx = this_thread();
    if (d < 0)
      d = 0;
    if (tx.depth <= d)
      return; // normal exit: PTM_END already closed the region
    if (d > 0) {
      tx.depth = d;
      return;
    }
    // Roll back what the transaction did through barriers, also when it
    // became irrevocable (the exception must not publish half a transaction);
    // only the effects of the uninstrumented code it ran cannot be undone.
    tx.irrevocable = false;
    P::on_event(tx, Event::UnwindRollback, 0);
    Tx::rollback_attempt(tx);
    tx.attempt = 0;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_ABI_UNINSTRUMENTED_H
