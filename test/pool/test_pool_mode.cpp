//===- test_pool_mode.cpp - pool files are owner-only unless asked --------===//
//
// A pool the runtime creates (ptm_open with a size) is mode 0600 even under
// umask 0; PTM_POOL_MODE chooses another mode (the umask still applies); a
// malformed PTM_POOL_MODE stops the program with a message naming it and
// creates nothing. An existing pool of mode 0644 (what older builds made)
// opens without a word; one that others can write opens with one warning
// per file and process. The private temporary pool is made in a directory
// of its own and leaves nothing in $TMPDIR.
//
//===----------------------------------------------------------------------===//

#include "pool_test.h"

#include <cerrno>
#include <cstring>
#include <sys/wait.h>

namespace {

const size_t kSize = 32 << 20;

unsigned file_mode(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return ~0u;
  return unsigned(st.st_mode & 07777);
}

// Creates the pool PATH through the runtime (PTM_POOL_MODE as set) and
// closes it; returns its mode.
unsigned created_mode(const std::string &path) {
  unlink(path.c_str());
  CHECK_EQ(ptm_open(path.c_str(), kSize), 0);
  ptm_close();
  return file_mode(path);
}

// Opens and closes PATH; returns what the runtime printed.
std::string open_messages(const std::string &path) {
  StderrCapture cap;
  cap.start();
  int rc = ptm_open(path.c_str(), 0);
  std::string err = cap.stop();
  CHECK_EQ(rc, 0);
  if (rc == 0)
    ptm_close();
  return err;
}

void test_created_modes() {
  std::string path = temp_pool_path("mode");
  umask(0);
  unsetenv("PTM_POOL_MODE");
  CHECK_EQ(created_mode(path), 0600u);
  setenv("PTM_POOL_MODE", "640", 1);
  CHECK_EQ(created_mode(path), 0640u);
  setenv("PTM_POOL_MODE", "0660", 1);
  CHECK_EQ(created_mode(path), 0660u);
  umask(027);
  CHECK_EQ(created_mode(path), 0640u); // the umask applies, as for open(2)
  umask(022);
  unsetenv("PTM_POOL_MODE");
  unlink(path.c_str());
}

// PTM_POOL_MODE=TEXT: the runtime stops (exit 70) naming it; no file.
void test_bad_mode(const char *text) {
  std::string path = temp_pool_path("badmode");
  StderrCapture cap;
  cap.start();
  pid_t pid = fork();
  if (pid == 0) {
    setenv("PTM_POOL_MODE", text, 1);
    int rc = ptm_open(path.c_str(), kSize);
    _exit(rc == 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::string err = cap.stop();
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 70);
  std::string want =
      std::string("ptm: error: PTM_POOL_MODE='") + text + "' is not a pool";
  if (err.find(want) == std::string::npos)
    fprintf(stderr, "PTM_POOL_MODE=%s: unexpected message: %s", text,
            err.c_str());
  CHECK(err.find(want) != std::string::npos);
  CHECK(access(path.c_str(), F_OK) != 0);
}

void test_warnings() {
  std::string path = temp_pool_path("shared");
  CHECK_EQ(created_mode(path), 0600u);
  CHECK(open_messages(path).empty());
  chmod(path.c_str(), 0644); // older builds' pools: others may only read
  CHECK(open_messages(path).empty());
  chmod(path.c_str(), 0664);
  std::string err = open_messages(path);
  std::string want = "ptm: warning: " + path +
                     ": the pool file can be written by other users (mode "
                     "0664, owner uid " +
                     std::to_string(getuid()) +
                     "): they can change this program's data; make it "
                     "owner-only (chmod 600)\n";
  if (err != want)
    fprintf(stderr, "expected: %sgot:      %s", want.c_str(), err.c_str());
  CHECK(err == want);
  CHECK(open_messages(path).empty()); // once per file
  std::string other = temp_pool_path("shared");
  CHECK_EQ(created_mode(other), 0600u);
  chmod(other.c_str(), 0602);
  CHECK(open_messages(other).find("ptm: warning: " + other +
                                  ": the pool file can be written by other "
                                  "users (mode 0602") == 0);
  unlink(path.c_str());
  unlink(other.c_str());
}

// The default pool without PTM_POOL: made in a private directory under
// $TMPDIR (the mapping names it), which is empty again once it is open.
void test_temporary_pool() {
  std::string dir = temp_pool_path("tmpdir");
  CHECK_EQ(mkdir(dir.c_str(), 0700), 0);
  setenv("TMPDIR", dir.c_str(), 1);
  unsetenv("PTM_POOL");
  auto *root = static_cast<uint64_t *>(ptm_root(64));
  CHECK(root != nullptr);
  if (root)
    run_tx([&] { __ptm_write_8(root, 7); });
  std::string mapped;
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096];
  while (maps && fgets(line, sizeof line, maps))
    if (strstr(line, dir.c_str()))
      mapped = line;
  if (maps)
    fclose(maps);
  std::string want = dir + "/ptm-pool-";
  if (mapped.find(want) == std::string::npos ||
      mapped.find("/pool (deleted)") == std::string::npos)
    fprintf(stderr, "temporary pool mapping: %s\n", mapped.c_str());
  CHECK(mapped.find(want) != std::string::npos);
  CHECK(mapped.find("/pool (deleted)") != std::string::npos);
  ptm_close();
  CHECK_EQ(rmdir(dir.c_str()), 0); // empty: nothing left behind
  unsetenv("TMPDIR");
}

} // namespace

int main() {
  unsetenv("PTM_POOL");
  test_created_modes();
  test_bad_mode("400");
  test_bad_mode("u+rw");
  test_bad_mode("1600");
  test_warnings();
  test_temporary_pool();
  return check_result("pool_mode");
}
