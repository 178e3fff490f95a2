//===- test_pool_fuzz.cpp - damaged pool files never crash a program ------===//
//
// test_pool_fuzz PTM_POOL_TOOL COUNT SEED [FIRST]: mutations FIRST (default
// 0) to FIRST + COUNT - 1 of two pools of this library, each derived from
// (SEED, its index, the library's name) alone, so that one mutation can be
// run again by itself (a failure prints that command).
//
// The two pools (8 MiB, 64 thread slots of 64 KiB, the transfer workload of
// transfer_load.h): "live", 200 transfers and a 100 KiB block (a large
// heap block) closed cleanly; "pending", a copy of it in which a child ran
// 40 more transfers and was killed (SIGKILL, by itself) in the middle of a
// transaction that had written an account and allocated a note: it has
// records to recover (the test checks that it does). Even mutations damage
// the live pool, odd ones the pending one (fuzz_mutation.h: the header, the
// thread slots, the heap's metadata, the root descriptor).
//
// Each mutated file goes through, every program in a child process with a
// time limit (a hang is a failure, as is any signal):
//   1. `ptm-pool check`: exit 0, or 1 with a message; the file unchanged;
//   2. this program's `open` mode (ptm_open, ptm_close): either a refusal
//      (ptm_open fails with `ptm: error: <file>: ...`, the file unchanged:
//      REFUSED), or the pool opens (recovery ran);
//   3. opened: `ptm-pool check` of the recovered file: a clean report of
//      damage (exit 1 and a message: CHECK-REPORTED), or ok; then
//   4. ok: the `work` mode: open, the root object, the accounts' total
//      conserved where the damage cannot have touched the data (the header's
//      fields as written, the heap's metadata), a transaction that moves
//      money and allocates and frees a block, close; and `ptm-pool check`
//      once more, ok: RECOVERED.
// Anything else is a failure. The figures are printed by kind and region.
//
//===----------------------------------------------------------------------===//

#include "child_run.h"
#include "fuzz_mutation.h"
#include "mapped_pool.h"
#include "transfer_load.h"

#include <climits>
#include <csignal>
#include <cstring>
#include <map>

namespace {

constexpr uint64_t kRecords = 128;
constexpr size_t kPoolSize = 8 << 20;
constexpr unsigned kTimeLimit = 60; // seconds per program run: a hang

struct Root {
  uint64_t next_id;
  uint64_t accounts[kAccounts];
  Note *notes[2];
  Record records[kRecords];
  void *blob; // a large heap block
};

// ---- the child modes ----------------------------------------------------

// `pending PATH`: 40 transfers, then killed inside a transaction.
int child_pending(const char *path) {
  auto *root = open_transfer_root<Root>(path);
  if (!root)
    return 3;
  std::mt19937 rng(17);
  for (int i = 0; i < 40; ++i)
    transfer(root, rng, i % 2);
  run_tx([&] {
    uint64_t a = __ptm_read_8(&root->accounts[0]);
    __ptm_write_8(&root->accounts[0], a - 7); // not yet balanced
    auto *note = static_cast<Note *>(ptm_malloc(sizeof(Note)));
    if (note)
      __ptm_write_8(&note->id, 99);
    kill(getpid(), SIGKILL);
  });
  return 4; // not reached
}

// `open PATH`: 0 opened (and closed), 10 refused.
int child_open(const char *path) {
  if (ptm_open(path, 0) != 0)
    return 10;
  ptm_close();
  return 0;
}

// `work PATH CONSERVE`: 0, or 11 (no open), 12 (total changed), 13 (no
// root; without CONSERVE, where the damage may have erased the root
// descriptor, it makes a new root as a program would). Follows no pointer
// stored in the data.
int child_work(const char *path, bool conserve) {
  if (ptm_open(path, 0) != 0)
    return 11;
  auto *root = static_cast<Root *>(ptm_root(0));
  if (!root && !conserve) // a damaged root descriptor may say "no root yet":
    root = static_cast<Root *>(ptm_root(sizeof(Root))); // a program starts
  if (!root)
    return 13;
  uint64_t sum = 0;
  for (uint64_t a : root->accounts)
    sum += a;
  if (conserve && sum != kInitial * kAccounts) {
    fprintf(stderr, "work: total %llu, expected %llu\n",
            (unsigned long long)sum,
            (unsigned long long)(kInitial * kAccounts));
    return 12;
  }
  void *block = nullptr;
  run_tx([&] {
    uint64_t a = __ptm_read_8(&root->accounts[1]);
    uint64_t moved = a ? 1 : 0;
    __ptm_write_8(&root->accounts[1], a - moved);
    __ptm_write_8(&root->accounts[2], __ptm_read_8(&root->accounts[2]) + moved);
    block = ptm_malloc(48);
    if (block)
      __ptm_write_8(static_cast<uint64_t *>(block), 5);
  });
  run_tx([&] { ptm_free(block); });
  ptm_close();
  return 0;
}

// ---- the base pools -----------------------------------------------------

void build_live(const std::string &path) {
  create_transfer_pool<Root>(path, kPoolSize);
  auto *root = open_transfer_root<Root>(path.c_str());
  CHECK(root != nullptr);
  if (!root)
    return;
  void *blob = ptm_malloc(100 << 10);
  CHECK(blob != nullptr);
  run_tx([&] {
    __ptm_write_8(reinterpret_cast<uint64_t *>(&root->blob),
                  reinterpret_cast<uint64_t>(blob));
  });
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i)
    transfer(root, rng, i % 2);
  ptm_close();
}

bool copy_file(const std::string &from, const std::string &to) {
  FILE *f = fopen(from.c_str(), "rb"), *g = fopen(to.c_str(), "wb");
  bool ok = f && g;
  unsigned char buf[65536];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0)
    ok = fwrite(buf, 1, n, g) == n;
  if (f)
    fclose(f);
  if (g)
    ok = fclose(g) == 0 && ok;
  return ok;
}

size_t pending_records(const std::string &path) {
  MappedPool m(path, /*writable=*/false);
  return ptm::pool::pending_slots(m.view).size();
}

// ---- one mutation -------------------------------------------------------

// Mixed into every mutation's seed: each library meets other damage.
unsigned library_salt() {
  unsigned h = 2166136261u;
  for (const char *p = ptm_algorithm(); *p; ++p)
    h = (h ^ unsigned(uint8_t(*p))) * 16777619u;
  return h;
}

// Writes IMG as the file PATH (new, sparse: only pages that are not zero).
bool write_image(const std::string &path,
                 const std::vector<unsigned char> &img) {
  unlink(path.c_str());
  int fd = open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    return false;
  bool ok = ftruncate(fd, off_t(img.size())) == 0;
  static const unsigned char zeros[4096] = {};
  for (size_t at = 0; ok && at < img.size(); at += 4096) {
    size_t n = img.size() - at < 4096 ? img.size() - at : 4096;
    if (memcmp(&img[at], zeros, n) != 0)
      ok = pwrite(fd, &img[at], n, off_t(at)) == ssize_t(n);
  }
  return close(fd) == 0 && ok;
}

bool file_is(const std::string &path, const std::vector<unsigned char> &img) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f)
    return false;
  std::vector<unsigned char> buf(1 << 20);
  size_t at = 0, n;
  bool same = true;
  while (same && (n = fread(buf.data(), 1, buf.size(), f)) > 0) {
    same = at + n <= img.size() && memcmp(buf.data(), &img[at], n) == 0;
    at += n;
  }
  fclose(f);
  return same && at == img.size();
}

enum Outcome { kRefused, kRecovered, kCheckReported, kFailed, kOutcomes };
const char *const kOutcomeNames[kOutcomes] = {"refused", "recovered",
                                              "check-reported", "failed"};

struct Fuzzer {
  std::string self, tool, work_path;
  unsigned seed = 1;
  const PoolImage *bases[2] = {};
  const char *base_names[2] = {"live", "pending"};
  unsigned counts[kFuzzRegions][kOutcomes] = {};

  ChildResult check(const std::string &path) {
    return run_child({tool, "check", path}, kTimeLimit);
  }
  ChildResult self_run(const char *mode, const std::string &path,
                       const char *arg = nullptr) {
    std::vector<std::string> argv = {self, mode, path};
    if (arg)
      argv.push_back(arg);
    return run_child(argv, kTimeLimit);
  }

  // A clean verdict of ptm-pool check: exit 0, or 1 with a message.
  static bool clean_check(const ChildResult &r) {
    return r.exited(0) ||
           (r.exited(1) &&
            (r.stderr_.find("ptm-pool: ") != std::string::npos ||
             r.stderr_.find("ptm: error: ") != std::string::npos));
  }

  Outcome fail(unsigned index, const Mutation &m, const char *step,
               const std::string &problem, const ChildResult *r,
               const std::vector<unsigned char> *before = nullptr) {
    fprintf(stderr, "FAIL: mutation %u (%s pool, %s: %s)\n  %s: %s\n", index,
            base_names[index % 2], region_name(m.region), m.what.c_str(), step,
            problem.c_str());
    if (r && !r->stderr_.empty())
      fprintf(stderr, "  its stderr:\n%s", r->stderr_.c_str());
    std::string kept = work_path + ".fail-" + std::to_string(index);
    if (rename(work_path.c_str(), kept.c_str()) == 0)
      fprintf(stderr, "  the file: %s\n", kept.c_str());
    if (before && write_image(kept + ".before", *before))
      fprintf(stderr, "  the mutated file before the step: %s.before\n",
              kept.c_str());
    fprintf(stderr, "  reproduce: %s %s 1 %u %u\n", self.c_str(), tool.c_str(),
            seed, index);
    return kFailed;
  }

  // Mutation INDEX: its outcome, counted under its region.
  Outcome run_one(unsigned index) {
    const PoolImage &base = *bases[index % 2];
    std::seed_seq seq{seed, index, library_salt()};
    std::mt19937_64 rng(seq);
    std::vector<unsigned char> img = base.bytes;
    Mutator mutator(base, rng);
    Mutation m = mutator.mutate(img);
    Outcome o = judge(index, m, img);
    ++counts[int(m.region)][o];
    return o;
  }

  Outcome judge(unsigned index, const Mutation &m,
                const std::vector<unsigned char> &img) {
    if (!write_image(work_path, img))
      return fail(index, m, "write", "cannot write the mutated file", nullptr);

    ChildResult r = check(work_path);
    if (!clean_check(r))
      return fail(index, m, "ptm-pool check", r.describe(), &r);
    if (!file_is(work_path, img))
      return fail(index, m, "ptm-pool check", "changed the file", &r, &img);

    r = self_run("open", work_path);
    if (r.exited(10)) {
      std::string want = "ptm: error: " + work_path + ": ";
      if (r.stderr_.find(want) == std::string::npos)
        return fail(index, m, "open", "refused without a message", &r);
      if (!file_is(work_path, img))
        return fail(index, m, "open", "refused but changed the file", &r, &img);
      return kRefused;
    }
    if (!r.exited(0))
      return fail(index, m, "open", r.describe(), &r);

    r = check(work_path);
    if (!clean_check(r))
      return fail(index, m, "ptm-pool check after recovery", r.describe(), &r);
    if (r.exited(1))
      return kCheckReported;

    // The data are as written unless the damage was in a log, the root
    // descriptor or a header field rewritten with a valid checksum.
    bool conserve = !m.forged && (m.region == FuzzRegion::kHeader ||
                                  m.region == FuzzRegion::kHeap);
    r = self_run("work", work_path, conserve ? "1" : "0");
    if (!r.exited(0))
      return fail(index, m, "work on the recovered pool", r.describe(), &r);
    r = check(work_path);
    if (!r.exited(0))
      return fail(index, m, "ptm-pool check after work", r.describe(), &r);
    return kRecovered;
  }
};

std::string self_path() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return "";
  buf[n] = '\0';
  return buf;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "pending"))
    return child_pending(argv[2]);
  if (argc == 3 && !strcmp(argv[1], "open"))
    return child_open(argv[2]);
  if (argc == 4 && !strcmp(argv[1], "work"))
    return child_work(argv[2], !strcmp(argv[3], "1"));
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: %s PTM_POOL_TOOL COUNT SEED [FIRST]\n", argv[0]);
    return 2;
  }
  Fuzzer fz;
  fz.self = self_path();
  fz.tool = argv[1];
  unsigned count = unsigned(atoi(argv[2]));
  fz.seed = unsigned(atoi(argv[3]));
  unsigned first = argc > 4 ? unsigned(atoi(argv[4])) : 0;
  setenv("PTM_POOL_SLOT_SIZE", "64K", 1);

  std::string live_path = temp_pool_path("fuzz-live");
  std::string pending_path = temp_pool_path("fuzz-pending");
  fz.work_path = temp_pool_path("fuzz-mutated");
  build_live(live_path);
  CHECK(copy_file(live_path, pending_path));
  ChildResult r = fz.self_run("pending", pending_path);
  if (r.signal != SIGKILL)
    fprintf(stderr, "the pending pool's child: %s\n%s", r.describe().c_str(),
            r.stderr_.c_str());
  CHECK_EQ(r.signal, SIGKILL);
  size_t pending = pending_records(pending_path);
  CHECK(pending > 0); // the base has logs to recover
  PoolImage live, pend;
  CHECK(live.load(live_path));
  CHECK(pend.load(pending_path));
  fz.bases[0] = &live;
  fz.bases[1] = &pend;
  if (check_failures)
    return check_result("pool_fuzz");

  unsigned totals[kOutcomes] = {};
  for (unsigned i = first; i < first + count; ++i) {
    Outcome o = fz.run_one(i);
    ++totals[o];
    if (o == kFailed)
      ++check_failures;
  }
  printf("pool fuzz, %s, seed %u: %u mutations (%zu pending records in the "
         "pending pool):",
         ptm_algorithm(), fz.seed, count, pending);
  for (int o = 0; o < kOutcomes; ++o)
    printf(" %u %s%s", totals[o], kOutcomeNames[o],
           o + 1 < kOutcomes ? "," : "\n");
  for (int g = 0; g < kFuzzRegions; ++g) {
    printf("  %-16s", region_name(FuzzRegion(g)));
    for (int o = 0; o < kOutcomes; ++o)
      printf(" %4u %s", fz.counts[g][o], kOutcomeNames[o]);
    printf("\n");
  }
  unlink(live_path.c_str());
  unlink(pending_path.c_str());
  unlink(fz.work_path.c_str());
  return check_result("pool_fuzz");
}
