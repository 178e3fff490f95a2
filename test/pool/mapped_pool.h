//===- mapped_pool.h - a closed pool mapped by hand -------------*- C++ -*-===//
//
// The tests that write or read thread slots the way a crash leaves them map
// the pool file themselves, as recovery and ptm-pool do: MappedPool reads
// the header, maps the file and unmaps it at the end (or at unmap(), before
// ptm_open takes the file over), and runs the recovery that must refuse a
// damaged log.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_POOL_MAPPED_POOL_H
#define PTM_TEST_POOL_MAPPED_POOL_H

#include "../unit/check.h"
#include "runtime/pool/pool_file.h"
#include "runtime/pool/pool_view.h"
#include "runtime/pool/recovery.h"
#include "test/pool/pool_test.h"

#include <cerrno>

#include <string>

struct MappedPool {
  ptm::pool::PoolView view;

  MappedPool(const std::string &path, bool writable) {
    CHECK_EQ(ptm::pool::read_pool_header(path.c_str(), 0, &view.header), 0);
    CHECK_EQ(
        ptm::pool::map_pool(path.c_str(), view.header, writable, &view.base),
        0);
  }
  ~MappedPool() { unmap(); }
  MappedPool(const MappedPool &) = delete;
  MappedPool &operator=(const MappedPool &) = delete;

  void unmap() {
    if (view.base)
      ptm::pool::unmap_pool(view.base, view.header.pool_size);
    view.base = nullptr;
  }

  // Recovery of PATH's mapped logs, which must be refused (-EIO); returns
  // what it printed.
  std::string refused_recovery(const std::string &path) {
    StderrCapture cap;
    cap.start();
    int rc = ptm::pool::recover(view, path.c_str(), nullptr);
    std::string err = cap.stop();
    CHECK_EQ(rc, -EIO);
    return err;
  }
};

#endif // PTM_TEST_POOL_MAPPED_POOL_H
