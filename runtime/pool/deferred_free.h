//===- deferred_free.h - ordinary-heap frees after readers ------*- C++ -*-===//
//
// A block of the ordinary heap that a transaction of a persistent library
// frees (one malloc'd outside any transaction, e.g. while the program built
// its data before the first transaction): libc writes its free-list links
// into the block at once (glibc's are mangled pointers) and may hand it out
// again, so a doomed transaction still reading the block would take them
// for data. Such a free waits in a per-thread list until every transaction
// that was running when it committed has ended (reuse_epoch.h), as pool
// memory does (palloc's deferred reuse). Only for libraries that do not
// quiesce (the IP model): the others' commit has waited already.
//
// The list is worked off when the thread's attempts leave the pool
// (leave_tx, SlotHandle::heap_work) and at thread exit, which waits for the
// rest; a list that grows past a bound waits there too.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_DEFERRED_FREE_H
#define PTM_RUNTIME_POOL_DEFERRED_FREE_H

namespace ptm {
namespace pool {

// Frees PTR (of the ordinary heap) once the transactions running now have
// ended. Called outside any attempt of the caller.
void free_after_readers(void *ptr);

// Frees the blocks whose readers are gone; WAIT: waits for all of them.
void free_passed_blocks(bool wait);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_DEFERRED_FREE_H
