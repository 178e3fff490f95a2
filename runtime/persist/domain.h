//===- domain.h - where a pool's stores become durable ----------*- C++ -*-===//
//
// The persistence domain of the open pool (DESIGN.md "Deployment and
// storage"; docs/pool.md "Persistence domains"):
//
//   pmem        the file is on persistent memory (a DAX file system: the
//               mapping accepted MAP_SYNC): a line is durable once written
//               back and fenced
//   eadr        an eADR build (PTM_EADR=ON): the caches are persistent too
//   file        an ordinary file on a disk or SSD: a line is durable once a
//               sync of the file has covered it. Every fence that follows
//               written-back lines syncs the file (fdatasync), so each
//               library's own ordering holds on the disk; threads whose
//               fences meet share one sync (group commit, sync_file)
//   page-cache  no sync: durable against the process's crash, not against a
//               power cut (the choice for pools on tmpfs, whose contents a
//               power cut loses anyway, and for caches and tests)
//
// PTM_PERSIST_DOMAIN=pmem|eadr|file|page-cache overrides the choice.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_DOMAIN_H
#define PTM_RUNTIME_PERSIST_DOMAIN_H

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace persist {

enum class Domain : uint8_t { None, Pmem, Eadr, File, PageCache };

// "pmem", "eadr", "file", "page-cache"; "none" when no pool is open.
const char *domain_name(Domain d);

// The domain of a pool file on the file system at PATH whose writable
// mapping did (DAX) or did not accept MAP_SYNC, or PTM_PERSIST_DOMAIN's.
// false when PTM_PERSIST_DOMAIN is not a domain (after a message unless
// QUIET).
bool choose_domain(const char *path, bool dax, Domain *out, bool quiet = false);

// From an open until its close: the domain of the open pool, and the file
// descriptor that syncs it (kept open by the caller until leave_domain).
void enter_domain(Domain d, int fd);
void leave_domain();
Domain current_domain();
// The domain of the pool opened last, open or closed since (PTM_STATS at
// exit); None before the first open.
Domain last_domain();

// Makes every store to the open pool's file so far durable: one fdatasync,
// shared by the threads that ask while it is not yet started (group
// commit). Counted in ptm_stats.syncs of the thread that issues it.
void sync_file();
// The syncs of the pool file since the last open, by every thread (the
// buffered persister's too, which has no ptm_stats row).
uint64_t file_syncs();

// Makes durable the pages of the open pool's file that the SPANS touch, in
// two steps, for a writer that orders its own writes (the persister's
// records: runtime/pool/persister.cpp), whose fences do not sync
// (OwnSyncs), and stores to the file through a mapping of its own, with
// other work to do while the disk writes. start_sync_pages drops the page
// table entries of each run of pages (sorted, merged; as
// sync_file_unmapping, below) and starts writing their dirty pages
// (sync_file_range, SYNC_FILE_RANGE_WRITE: no wait, nothing durable yet;
// VIEW: where the writer's mapping holds the file's first byte);
// sync_file_pages of the same spans, later, with no store to them between,
// waits for those writes and flushes the disk's cache: one msync (MS_SYNC)
// of each run, counted as one sync of the file. (results/storage.md
// "Records built in DRAM": the disk writes one record while the next is
// built.)
struct Span {
  const void *addr;
  size_t n;
};
void start_sync_pages(const void *view, Span *spans, size_t count);
void sync_file_pages(Span *spans, size_t count);

// Stores the N bytes at FROM to AT, in a writer's mapping of the pool file
// whose first byte is at VIEW, through the file (pwrite on FD, open for
// writing): the page cache gets them without a store through the mapping,
// so its pages are neither faulted in nor, at their sync, write-protected
// (the persister's records, built in DRAM: runtime/pool/persister.cpp). A
// failure is fatal (nothing after it could be called durable).
void write_through_file(int fd, const void *view, void *at, const void *from,
                        size_t n);

// sync_file for a writer that stores through its own mapping of the file
// (the persister's PM view, [VIEW, VIEW + N)): the mapping's page table
// entries are dropped first (MADV_DONTNEED; the pages stay in the page
// cache, and those written through the mapping are marked dirty), so the
// sync finds no mapped page to write-protect. Otherwise the kernel
// write-protects every written page of a shared mapping one at a time,
// each with a TLB shootdown to every CPU that runs the process (an
// interprocessor interrupt per page), and the writer's next store to it
// faults; now the next access faults (the same), with one shootdown per
// call. start_sync_pages does the same for the runs it starts. Only for
// mappings that no other thread stores to (MAP_SHARED: nothing is lost).
void sync_file_unmapping(const void *view, size_t n);

// The file domain, strict durability: the page cache holds the open pool's
// file in base pages from now on. A store through a mapping dirties its
// whole folio, and readahead (at open, recovery reads every slot) caches a
// file in large folios, so a commit that wrote a few pages made the next
// sync write up to whole folios (results/storage.md "Base pages": 123 KB
// per strict commit with 1 MiB slots, 8 KB in base pages).
// cache_in_base_pages drops the file's clean pages cached so far, to be
// read again a page at a time (once per open); read_no_ahead turns
// readahead off (MADV_RANDOM) for a mapping [MAP, MAP + SIZE) of the whole
// pool (each mapping of it). Not for buffered durability, whose persister
// writes most of a large folio's pages in a round and whose faults
// readahead saves.
void cache_in_base_pages();
void read_no_ahead(void *map, size_t size);

// While one made with ON lives, the calling thread's fences do not sync the
// pool file in the file domain: the thread syncs what it wrote itself
// (sync_file, sync_file_pages).
struct OwnSyncs {
  explicit OwnSyncs(bool on);
  ~OwnSyncs();
};

// msync (MS_SYNC) of the pages that [ADDR, ADDR + N) touches, in a mapping
// of a file: in every domain, what a clean close and a new heap's format
// leave on the disk. 0 or -errno.
int sync_range(const void *addr, size_t n);

// A pool file just created at PATH, reserved (not sparse): in the file
// domain, the N bytes at OFF (its log slots, where every commit's record is
// synced) written with zeros, which the new file holds already. A reserved
// block is unwritten until its first write-back, which converts it (a
// change of the file's block map, for the sync that covers it to write);
// written now, a record's sync writes its pages alone (results/storage.md
// "Log slots written at creation"). Nothing in other domains. 0 or -errno
// (after a message).
int write_log_area(int fd, const char *path, uint64_t off, uint64_t n);

// A pool file just created at PATH: its data and its directory entry
// synced, unless the domain it will be opened in needs no sync.
// 0 or -errno (after a message).
int sync_new_file(int fd, const char *path);

} // namespace persist
} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_DOMAIN_H
