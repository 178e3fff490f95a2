//===- test_out_of_space.cpp - a full pool is an error, not a crash -------===//
//
// pool_oos_<lib> PTM_POOL_TOOL: fills a 48 MiB pool (16 MiB of thread slots,
// about 31 MiB of heap) inside transactions, with every persistent library
// (test/pool/CMakeLists.txt), and checks the documented results
// (docs/pool.md, "Out of space"):
//
//   1. one huge allocation: ptm_malloc of more than the heap, and of more
//      than is free (half the heap is taken), returns NULL inside a
//      transaction that then commits its other writes;
//   2. many small ones: transactions that each allocate up to 16 blocks of
//      4000 bytes and link them into a list, until ptm_malloc returns NULL
//      (that transaction commits the blocks it got); then a 1-chunk block
//      and a small block are NULL too;
//   3. a log with no room: a child (this program, `overflow PATH`) runs a
//      transaction that writes 20,000 cache lines of a block, more than a
//      thread slot logs, in the full heap: its log cannot extend (sp3: its
//      persister's record), and it stops with the error naming
//      PTM_POOL_SIZE, exit 70, no signal;
//   4. nothing committed is lost: the pool reopens (recovery), the list
//      holds every block with its pattern, the block the child wrote is
//      unchanged, `ptm-pool check` passes;
//   5. after freeing every block, the same fill gets exactly as many blocks
//      again, and `ptm-pool check` passes.
//
//===----------------------------------------------------------------------===//
#include "child_run.h"
#include "pool_test.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr size_t kPoolSize = size_t(48) << 20;
constexpr size_t kNodeSize = 4000;
constexpr size_t kLines = 20000; // more than a 256 KiB slot's 8190 entries

struct Node {
  Node *next;
  uint64_t index;
  uint64_t words[(kNodeSize - 16) / 8];
};

struct Root {
  Node *head;
  uint64_t count;
  uint64_t marker;
  uint64_t *lines; // kLines cache lines, written by the overflow child
};

uint64_t pattern(uint64_t index, size_t w) {
  return index * 0x9e3779b97f4a7c15ull + w;
}

Root *open_root(const std::string &path, size_t size) {
  int rc = ptm_open(path.c_str(), size);
  CHECK_EQ(rc, 0);
  if (rc != 0)
    return nullptr;
  return static_cast<Root *>(ptm_root(sizeof(Root)));
}

// Transactions of up to 16 blocks each until ptm_malloc returns NULL: the
// number of blocks linked.
uint64_t fill(Root *root) {
  uint64_t got = 0;
  for (bool full = false; !full;) {
    run_tx([&] {
      full = false;
      for (int k = 0; k < 16 && !full; ++k) {
        auto *n = static_cast<Node *>(ptm_malloc(sizeof(Node)));
        if (!n) {
          full = true;
          break;
        }
        uint64_t index = __ptm_read_8(&root->count);
        __ptm_write_8(reinterpret_cast<uint64_t *>(&n->next),
                      __ptm_read_8(reinterpret_cast<uint64_t *>(&root->head)));
        __ptm_write_8(&n->index, index);
        // (Two words of the pattern: the blocks are written, not just taken.)
        __ptm_write_8(&n->words[0], pattern(index, 0));
        __ptm_write_8(&n->words[(kNodeSize - 16) / 8 - 1], pattern(index, 1));
        __ptm_write_8(reinterpret_cast<uint64_t *>(&root->head),
                      reinterpret_cast<uint64_t>(n));
        __ptm_write_8(&root->count, index + 1);
      }
    });
    got = root->count;
  }
  return got;
}

// Every block of the list, with its pattern, count of them.
uint64_t verify_list(const Root *root) {
  uint64_t n = 0;
  for (const Node *p = root->head; p; p = p->next, ++n) {
    if (p->index != root->count - 1 - n ||
        p->words[0] != pattern(p->index, 0) ||
        p->words[(kNodeSize - 16) / 8 - 1] != pattern(p->index, 1)) {
      fprintf(stderr, "block %llu of the list is damaged\n",
              (unsigned long long)n);
      return ~uint64_t(0);
    }
    if (n > root->count)
      break;
  }
  return n;
}

void free_list(Root *root) {
  while (root->head)
    run_tx([&] {
      for (int k = 0; k < 16; ++k) {
        auto *n = reinterpret_cast<Node *>(
            __ptm_read_8(reinterpret_cast<uint64_t *>(&root->head)));
        if (!n)
          break;
        __ptm_write_8(reinterpret_cast<uint64_t *>(&root->head),
                      __ptm_read_8(reinterpret_cast<uint64_t *>(&n->next)));
        __ptm_write_8(&root->count, __ptm_read_8(&root->count) - 1);
        ptm_free(n);
      }
    });
}

// The child of step 3: one transaction that writes every line.
int overflow(const char *path) {
  Root *root = open_root(path, 0);
  if (!root)
    return 2;
  uint64_t *lines = root->lines;
  run_tx([&] {
    for (size_t i = 0; i < kLines; ++i)
      __ptm_write_8(&lines[i * 8], 0xdead);
  });
  fprintf(stderr, "the overflow transaction committed\n");
  ptm_close();
  return 3;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "overflow"))
    return overflow(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: %s PTM_POOL_TOOL | overflow POOL\n", argv[0]);
    return 2;
  }
  std::string tool = argv[1], path = temp_pool_path("oos");
  Root *root = open_root(path, kPoolSize);
  if (!root)
    return check_result("out of space");

  // 1. One huge allocation.
  size_t half = size_t(15) << 20;
  void *kept = ptm_malloc(half);
  CHECK(kept != nullptr);
  void *huge = &huge, *more = &more;
  run_tx([&] {
    __ptm_write_8(&root->marker, 1);
    huge = ptm_malloc(size_t(1) << 30);
    more = ptm_malloc(2 * half);
  });
  CHECK(huge == nullptr);
  CHECK(more == nullptr);
  CHECK_EQ(root->marker, 1u);
  ptm_free(kept);
  // The lines of step 3, then the fill.
  run_tx([&] {
    auto *lines = static_cast<uint64_t *>(ptm_malloc(kLines * 64));
    CHECK(lines != nullptr);
    __ptm_write_8(reinterpret_cast<uint64_t *>(&root->lines),
                  reinterpret_cast<uint64_t>(lines));
  });
  CHECK(root->lines != nullptr);
  memset(root->lines, 0, kLines * 64);
  ptm_sync();

  // 2. Many small ones.
  uint64_t first = fill(root);
  fprintf(stderr, "first fill: %llu blocks of %zu bytes\n",
          (unsigned long long)first, sizeof(Node));
  CHECK(first > 5000); // ~31 MiB of heap, 16 blocks per chunk
  void *chunk = &chunk, *small = &small;
  run_tx([&] {
    chunk = ptm_malloc(65536);
    small = ptm_malloc(sizeof(Node));
  });
  CHECK(chunk == nullptr);
  CHECK(small == nullptr);
  ptm_close();

  // 3. A full thread slot, in a child.
  ChildResult r =
      run_child({"/proc/self/exe", "overflow", path}, 120); // (this program)
  CHECK(r.exited(70)); // fatal() exits with 70 (EX_SOFTWARE)
  CHECK(r.stderr_.find("no free run") != std::string::npos);
  CHECK(r.stderr_.find("PTM_POOL_SIZE") != std::string::npos);
  if (!r.exited(70))
    fprintf(stderr, "overflow child: %s\n%s", r.describe().c_str(),
            r.stderr_.c_str());

  // 4. Nothing committed lost.
  CHECK(pool_tool_check(tool, path, 120));
  root = open_root(path, 0);
  if (!root)
    return check_result("out of space");
  CHECK_EQ(root->count, first);
  CHECK_EQ(verify_list(root), first);
  CHECK_EQ(root->marker, 1u);
  bool lines_clean = true;
  for (size_t i = 0; i < kLines; ++i)
    lines_clean &= root->lines[i * 8] == 0;
  CHECK(lines_clean);

  // 5. Free everything, fill again.
  free_list(root);
  CHECK_EQ(root->count, 0u);
  uint64_t second = fill(root);
  fprintf(stderr, "second fill: %llu blocks\n", (unsigned long long)second);
  CHECK_EQ(second, first);
  CHECK_EQ(verify_list(root), second);
  free_list(root);
  ptm_close();
  CHECK(pool_tool_check(tool, path, 120));
  if (!check_failures)
    unlink(path.c_str());
  return check_result("out of space");
}
