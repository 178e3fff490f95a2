// kv: a persistent key-value store that is an ordinary
// std::unordered_map<std::string, std::string>, placement-new'ed into the
// pool's root object and changed only inside transactions. With an ip_
// library everything a transaction allocates (the map's buckets and nodes,
// the strings' buffers) comes from the pool, so the map survives the
// process, a crash included: every acknowledged change is there after
// SIGKILL and restart.
//
//   kv [-p POOL] [-s SIZE_MB] put KEY VALUE | get KEY | del KEY | list
//   kv [-p POOL] [-s SIZE_MB] load FIRST COUNT [SYNC_EVERY]
//
// POOL defaults to $PTM_POOL, else kv.pool; a new pool has SIZE_MB
// megabytes (default 256), an existing one keeps its size. `load` puts COUNT
// keys key<i> = value<i>-<filler> for i = FIRST, FIRST+1, ..., each in its own
// transaction, and deletes key<i-3> after every 4th put; it prints
// "ack put <i>" / "ack del <i>" after each commit (flushed: a test that
// kills the process reads them). With SYNC_EVERY, every SYNC_EVERY puts it
// calls ptm_sync and prints "synced <i>" (the last put it covers): under
// PTM_DURABILITY=buffered, what is durable from then on. `list` prints every
// pair, sorted by key.
#include <ptm.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

using Map = std::unordered_map<std::string, std::string>;

constexpr unsigned long kMagic = 0x6b762d7374726531ul; // "kv-stre1"

// The root object: the map lives in it, constructed in place.
struct Root {
  unsigned long magic;
  Map map;
};

int usage() {
  fprintf(stderr, "usage: kv [-p POOL] [-s SIZE_MB] put KEY VALUE | get KEY "
                  "| del KEY | list | load FIRST COUNT [SYNC_EVERY]\n");
  return 2;
}

long number(const char *s) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < 0) {
    fprintf(stderr, "kv: bad number '%s'\n", s);
    exit(2);
  }
  return v;
}

std::string value_of(long i) {
  // 9 to ~70 bytes: short values in the string itself, longer ones in a
  // buffer of their own.
  std::string v = "value" + std::to_string(i) + "-";
  v.append(static_cast<size_t>(i % 61), static_cast<char>('a' + i % 26));
  return v;
}

void put(Root *r, const std::string &k, const std::string &v) {
  ptm::atomic([&] { r->map[k] = v; });
}

bool del(Root *r, const std::string &k) {
  return ptm::atomic([&] { return r->map.erase(k) != 0; });
}

int load(Root *r, long first, long count, long sync_every) {
  for (long i = first; i < first + count; i++) {
    put(r, "key" + std::to_string(i), value_of(i));
    printf("ack put %ld\n", i);
    fflush(stdout);
    if (i % 4 == 3) {
      del(r, "key" + std::to_string(i - 3));
      printf("ack del %ld\n", i - 3);
      fflush(stdout);
    }
    if (sync_every && (i - first + 1) % sync_every == 0) {
      if (ptm_sync() != 0)
        return 1;
      printf("synced %ld\n", i);
      fflush(stdout);
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const char *path = getenv("PTM_POOL");
  size_t size_mb = 0; // an existing pool keeps its size; a new one: 256 MB
  int i = 1;
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    if (!strcmp(argv[i], "-p"))
      path = argv[i + 1];
    else if (!strcmp(argv[i], "-s"))
      size_mb = static_cast<size_t>(number(argv[i + 1]));
    else
      return usage();
  }
  if (i >= argc)
    return usage();
  if (strncmp(ptm_algorithm(), "ip_", 3) != 0) {
    fprintf(stderr,
            "kv: library '%s': memory that a transaction allocates comes "
            "from the ordinary heap (only ip_ libraries allocate from the "
            "pool), so the map's nodes would not outlive the process; link "
            "kv with an ip_ library\n",
            ptm_algorithm());
    return 1;
  }
  if (!path)
    path = "kv.pool";
  if (!size_mb && access(path, F_OK) != 0)
    size_mb = 256;
  int rc = ptm_open(path, size_mb << 20);
  if (rc != 0) {
    fprintf(stderr, "kv: cannot open the pool: %s\n", strerror(-rc));
    return 1;
  }
  auto *root = static_cast<Root *>(ptm_root(sizeof(Root)));
  if (!root) {
    fprintf(stderr, "kv: no root object\n");
    return 1;
  }
  // A new pool's root is zeroed: construct the map there, in a transaction
  // (a crash leaves either no map or a whole one). The map grows as keys
  // come: the put that crosses its load factor rehashes it, relinking every
  // node in that one transaction, whose log outgrows the thread slot and
  // extends into the pool's heap (docs/pool.md "Log extensions").
  ptm::atomic([root] {
    if (root->magic != kMagic) {
      new (&root->map) Map();
      root->magic = kMagic;
    }
  });

  const char *cmd = argv[i];
  int left = argc - i - 1;
  char **arg = argv + i + 1;
  if (!strcmp(cmd, "put") && left == 2) {
    put(root, arg[0], arg[1]);
  } else if (!strcmp(cmd, "get") && left == 1) {
    std::string key = arg[0], v;
    bool found = ptm::atomic([&] {
      auto it = root->map.find(key);
      if (it == root->map.end())
        return false;
      v = it->second;
      return true;
    });
    if (!found) {
      fprintf(stderr, "kv: no key '%s'\n", arg[0]);
      return 1;
    }
    printf("%s\n", v.c_str());
  } else if (!strcmp(cmd, "del") && left == 1) {
    if (!del(root, arg[0])) {
      fprintf(stderr, "kv: no key '%s'\n", arg[0]);
      return 1;
    }
  } else if (!strcmp(cmd, "list") && left == 0) {
    // Read outside a transaction: no other thread runs, and one
    // transaction copying the whole map would need a log entry per copied
    // word (a thread slot holds a few thousand).
    std::vector<std::pair<std::string, std::string>> all(root->map.begin(),
                                                         root->map.end());
    std::sort(all.begin(), all.end());
    for (const auto &kv : all)
      printf("%s %s\n", kv.first.c_str(), kv.second.c_str());
  } else if (!strcmp(cmd, "load") && (left == 2 || left == 3)) {
    return load(root, number(arg[0]), number(arg[1]),
                left == 3 ? number(arg[2]) : 0);
  } else {
    return usage();
  }
  ptm_close();
  return 0;
}
