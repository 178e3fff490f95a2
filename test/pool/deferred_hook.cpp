//===- deferred_hook.cpp - the test-only hook of deferred flushing --------===//
//
// Linked into the test-only library copies built with PTM_TEST_HOOKS=1
// (test/pool/CMakeLists.txt); libs/persistent_logging.h calls it.
//
//===----------------------------------------------------------------------===//

extern "C" {
__attribute__((visibility("default"))) void (*ptm_test_deferred_hook)(void) =
    nullptr;
}
