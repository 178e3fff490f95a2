//===- CalleeClassifier.cpp - what a call in a transaction becomes
//----------===//

#include "CalleeClassifier.h"
#include "LlvmCompat.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ptm {

namespace {

// libc functions the runtime provides transactional versions of.
const char *const LibcFunctions[] = {
    "memchr", "memcmp", "strlen", "strnlen", "strcmp", "strncmp", "strcpy",
    "strncpy", "stpcpy", "strcat", "strncat", "strchr", "strrchr", "strstr",
    "strspn", "strcspn", "strpbrk", "strdup", "strndup", "memrchr", "strtok_r",
    "rand_r",
    // strto*/ato* and glibc's names for them (C23 redirects, the old
    // inline expansions of <stdlib.h>)
    "strtol", "strtoul", "strtoll", "strtoull", "strtoq", "strtouq",
    "__isoc23_strtol", "__isoc23_strtoul", "__isoc23_strtoll",
    "__isoc23_strtoull", "__strtol_internal", "__strtoul_internal",
    "__strtoll_internal", "__strtoull_internal", "__strtod_internal", "strtod",
    "strtof", "strtold", "atoi", "atol", "atoll", "atof",
    // with a comparator: its transactional clone is called
    "qsort", "qsort_r", "bsearch",
    // math with a pointer result
    "modf", "modff", "modfl", "frexp", "frexpf", "frexpl", "remquo", "remquof",
    "sincos", "sincosf",
    // formatting into transactional memory (and _FORTIFY_SOURCE's forms)
    "snprintf", "vsnprintf", "sprintf", "vsprintf", "__snprintf_chk",
    "__vsnprintf_chk", "__sprintf_chk", "__vsprintf_chk",
    // _FORTIFY_SOURCE's checked string and memory functions
    "__memcpy_chk", "__memmove_chk", "__memset_chk", "__strcpy_chk",
    "__stpcpy_chk", "__strcat_chk", "__strncpy_chk", "__strncat_chk"};

// libstdc++'s out-of-line node, rehash and hashing functions (by mangled
// name): __ptm_<name> in the runtime (tx_stdcxx.h) reads and writes the nodes
// through the barriers.
const char *const StdcxxFunctions[] = {
    "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
    "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
    "_ZSt20_Rb_tree_black_countPKSt18_Rb_tree_node_baseS1_",
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_",
    "_ZNSt8__detail15_List_node_base9_M_unhookEv",
    "_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_",
    "_ZNSt8__detail15_List_node_base10_M_reverseEv",
    "_ZNSt8__detail15_List_node_base4swapERS0_S1_",
    "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm",
    "_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
    "_ZSt11_Hash_bytesPKvmm",
    "_ZSt15_Fnv_hash_bytesPKvmm"};

// libstdc++'s std::__throw_* helpers (_ZSt<len>__throw_<what>...) compiled
// into libstdc++.so: they construct an exception object (private to the
// thread) and throw it; the exception leaving the transaction rolls it back.
// Called as they are. (Helpers defined in the headers, such as
// __throw_bad_variant_access, are cloned like any inline function.)
bool isThrowHelper(StringRef Name) {
  if (!Name.consume_front("_ZSt"))
    return false;
  Name = Name.drop_while([](char C) { return C >= '0' && C <= '9'; });
  return Name.starts_with("__throw_");
}

// std::allocator<char> and std::allocator<wchar_t> are declared `extern
// template` by libstdc++ (instantiated in libstdc++.so); below -O1 clang
// calls their constructors and destructors, which have empty bodies (the
// class is empty), instead of inlining them. They touch no memory.
bool isEmptyAllocatorMember(StringRef Name) {
  if (!Name.consume_front("_ZNSaIcE") && !Name.consume_front("_ZNSaIwE"))
    return false;
  return Name.starts_with("C1") || Name.starts_with("C2") ||
         Name.starts_with("D1") || Name.starts_with("D2");
}

// Functions that touch no shared memory (they may write errno, which is
// thread-local): math, character classes, absolute values; and the readers
// of the environment, which no transaction writes (setenv, putenv and
// unsetenv are refused in one), so that reading it needs no barrier.
const char *const PureFunctions[] = {"sqrt",
                                     "sqrtf",
                                     "sqrtl",
                                     "cbrt",
                                     "cbrtf",
                                     "sin",
                                     "sinf",
                                     "sinl",
                                     "cos",
                                     "cosf",
                                     "cosl",
                                     "tan",
                                     "tanf",
                                     "asin",
                                     "asinf",
                                     "acos",
                                     "acosf",
                                     "atan",
                                     "atanf",
                                     "atan2",
                                     "atan2f",
                                     "sinh",
                                     "cosh",
                                     "tanh",
                                     "exp",
                                     "expf",
                                     "expl",
                                     "exp2",
                                     "exp2f",
                                     "expm1",
                                     "log",
                                     "logf",
                                     "logl",
                                     "log2",
                                     "log2f",
                                     "log10",
                                     "log10f",
                                     "log1p",
                                     "pow",
                                     "powf",
                                     "powl",
                                     "fabs",
                                     "fabsf",
                                     "fabsl",
                                     "floor",
                                     "floorf",
                                     "floorl",
                                     "ceil",
                                     "ceilf",
                                     "ceill",
                                     "round",
                                     "roundf",
                                     "lround",
                                     "llround",
                                     "trunc",
                                     "truncf",
                                     "fmod",
                                     "fmodf",
                                     "fmin",
                                     "fminf",
                                     "fmax",
                                     "fmaxf",
                                     "hypot",
                                     "hypotf",
                                     "rint",
                                     "rintf",
                                     "lrint",
                                     "lrintf",
                                     "llrint",
                                     "llrintf",
                                     "lroundf",
                                     "llroundf",
                                     "fdim",
                                     "fdimf",
                                     "fma",
                                     "fmaf",
                                     "remainder",
                                     "remainderf",
                                     "nextafter",
                                     "nextafterf",
                                     "logb",
                                     "ilogb",
                                     "scalbn",
                                     "scalbnf",
                                     "erf",
                                     "erfc",
                                     "tgamma",
                                     "asinh",
                                     "acosh",
                                     "atanh",
                                     "sinhf",
                                     "coshf",
                                     "tanhf",
                                     "expm1f",
                                     "log1pf",
                                     "nearbyintf",
                                     "div",
                                     "ldiv",
                                     "lldiv",
                                     "imaxdiv",
                                     "imaxabs",
                                     "isblank",
                                     "iscntrl",
                                     "isgraph",
                                     "isascii",
                                     "toascii",
                                     "nearbyint",
                                     "copysign",
                                     "copysignf",
                                     "ldexp",
                                     "ldexpf",
                                     "abs",
                                     "labs",
                                     "llabs",
                                     "toupper",
                                     "tolower",
                                     "isalpha",
                                     "isdigit",
                                     "isalnum",
                                     "isspace",
                                     "isupper",
                                     "islower",
                                     "isxdigit",
                                     "isprint",
                                     "ispunct",
                                     "__errno_location",
                                     "__ctype_b_loc",
                                     "__ctype_toupper_loc",
                                     "__ctype_tolower_loc",
                                     "getenv",
                                     "secure_getenv"};

// Side effects outside memory: cannot be rolled back.
const char *const IrrevocableFunctions[] = {"printf",
                                            "fprintf",
                                            "vprintf",
                                            "vfprintf",
                                            "puts",
                                            "fputs",
                                            "putchar",
                                            "fputc",
                                            "putc",
                                            "fwrite",
                                            "fread",
                                            "fopen",
                                            "fclose",
                                            "fflush",
                                            "fgets",
                                            "fgetc",
                                            "getc",
                                            "getchar",
                                            "scanf",
                                            "fscanf",
                                            "sscanf",
                                            "write",
                                            "read",
                                            "open",
                                            "close",
                                            "send",
                                            "recv",
                                            "system",
                                            "sleep",
                                            "usleep",
                                            "nanosleep",
                                            "rand",
                                            "srand",
                                            "time",
                                            "clock_gettime",
                                            "gettimeofday",
                                            "pthread_create",
                                            "pthread_join",
                                            "pthread_mutex_lock",
                                            "pthread_mutex_unlock",
                                            "sched_yield",
                                            "perror",
                                            "exit",
                                            "_exit"};

// C++ runtime functions that act on thread-private exception state.
const char *const CxxRuntimeFunctions[] = {
    "__cxa_free_exception",
    "__cxa_throw",
    "__cxa_rethrow",
    "__cxa_begin_catch",
    "__cxa_end_catch",
    "__cxa_get_exception_ptr",
    "__cxa_call_unexpected",
    "__cxa_bad_cast",
    "__cxa_bad_typeid",
    "__cxa_pure_virtual",
    "__cxa_deleted_virtual",
    "_Unwind_Resume",
    "__clang_call_terminate",
    "_ZSt9terminatev",
    "__assert_fail",
    "abort",
    "__stack_chk_fail",
    "_ZSt17__throw_bad_allocv",
    "_ZSt20__throw_length_errorPKc",
    "_ZSt20__throw_out_of_rangePKc",
    "_ZSt24__throw_out_of_range_fmtPKcz",
    "_ZSt19__throw_logic_errorPKc",
    "_ZSt28__throw_bad_array_new_lengthv",
    "_ZSt25__throw_bad_function_callv"};

// Classes of the standard exception hierarchy (mangled as <length><name>):
// their constructors, destructors and what() act on the exception object,
// which is private to the throwing thread and outlives a rollback.
const char *const ExceptionClasses[] = {
    "9exception",          "9bad_alloc",
    "8bad_cast",           "10bad_typeid",
    "11logic_error",       "12domain_error",
    "16invalid_argument",  "12length_error",
    "12out_of_range",      "13runtime_error",
    "11range_error",       "14overflow_error",
    "15underflow_error",   "20bad_array_new_length",
    "17bad_function_call", "12system_error",
    "13bad_exception"};

bool isExceptionObjectFunction(StringRef Name) {
  if (!Name.consume_front("_ZNSt") && !Name.consume_front("_ZNKSt"))
    return false;
  for (const char *C : ExceptionClasses) {
    StringRef Rest = Name;
    if (!Rest.consume_front(C))
      continue;
    return Rest.starts_with("C1") || Rest.starts_with("C2") ||
           Rest.starts_with("D0") || Rest.starts_with("D1") ||
           Rest.starts_with("D2") || Rest.starts_with("4what");
  }
  return false;
}

const char *const SetjmpFunctions[] = {
    "setjmp",  "_setjmp",  "sigsetjmp",  "__sigsetjmp",
    "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"};

// The public API of ptm.h (and the test runtime's): called as is.
const char *const ApiFunctions[] = {
    "ptm_atomic",        "ptm_restart",    "ptm_in_transaction", "ptm_open",
    "ptm_close",         "ptm_root",       "ptm_malloc",         "ptm_calloc",
    "ptm_aligned_alloc", "ptm_free",       "ptm_algorithm",      "ptm_stats",
    "ptm_stats_threads", "ptm_stats_print"};

bool inList(StringRef Name, ArrayRef<const char *> List) {
  for (const char *S : List)
    if (Name == S)
      return true;
  return false;
}

// Intrinsics that do not access shared memory, or only the stack frame.
bool isHarmlessIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::dbg_assign:
  case Intrinsic::assume:
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
  case Intrinsic::prefetch:
  case Intrinsic::objectsize:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::sideeffect:
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::vastart:
  case Intrinsic::vaend:
  case Intrinsic::vacopy:
  case Intrinsic::threadlocal_address:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::ptr_annotation:
  case Intrinsic::var_annotation:
  case Intrinsic::annotation:
  case Intrinsic::eh_typeid_for:
  case Intrinsic::donothing:
  case Intrinsic::pseudoprobe:
    return true;
  default:
    return compat::isCheckGuardIntrinsic(ID);
  }
}

} // namespace

CalleeClassifier::CalleeClassifier(Module &M) {
  GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return;
  for (Value *Op : Arr->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    auto *StrGV =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    if (!F || !StrGV || !StrGV->hasInitializer())
      continue;
    auto *Str = dyn_cast<ConstantDataArray>(StrGV->getInitializer());
    if (!Str || !Str->isCString())
      continue;
    StringRef Ann = Str->getAsCString();
    if (Ann == "ptm_pure")
      Pure.insert(F);
    else if (Ann == "ptm_safe")
      Safe.insert(F);
  }
}

bool CalleeClassifier::isRegionBegin(const Function &F) {
  return F.getName() == "__ptm_region_begin";
}
bool CalleeClassifier::isRegionEnd(const Function &F) {
  return F.getName() == "__ptm_region_end";
}

bool CalleeClassifier::isRuntimeName(StringRef N) {
  return N.starts_with("__ptm_") || N.starts_with("ptm_test_") ||
         N.starts_with("_ZN3ptm6detail") || inList(N, ApiFunctions);
}

bool CalleeClassifier::isUninstrumented(const Function &F) const {
  return F.isIntrinsic() || isRuntimeName(F.getName()) || isPure(F) ||
         inList(F.getName(), CxxRuntimeFunctions);
}

std::string CalleeClassifier::libcReplacement(StringRef Name) {
  return ("__ptm_" + Name).str();
}

const AllocReplacement *CalleeClassifier::allocReplacement(StringRef N) const {
  static const StringMap<AllocReplacement> Table = {
      {"malloc", {"__ptm_tx_malloc", {0}}},
      {"calloc", {"__ptm_tx_calloc", {0, 1}}},
      {"realloc", {"__ptm_tx_realloc", {0, 1}}},
      {"aligned_alloc", {"__ptm_tx_aligned_alloc", {0, 1}}},
      {"memalign", {"__ptm_tx_aligned_alloc", {0, 1}}},
      {"posix_memalign", {"__ptm_tx_posix_memalign", {0, 1, 2}}},
      {"free", {"__ptm_tx_free", {0}}},
      // The exception object: written in place, kept by a rollback.
      {"__cxa_allocate_exception", {"__ptm_tx_allocate_exception", {0}}},
      {"cfree", {"__ptm_tx_free", {0}}},
      // operator new / new[]
      {"_Znwm", {"__ptm_tx_new", {0}}},
      {"_Znam", {"__ptm_tx_new", {0}}},
      {"_ZnwmRKSt9nothrow_t", {"__ptm_tx_new_nothrow", {0}}},
      {"_ZnamRKSt9nothrow_t", {"__ptm_tx_new_nothrow", {0}}},
      {"_ZnwmSt11align_val_t", {"__ptm_tx_new_aligned", {0, 1}}},
      {"_ZnamSt11align_val_t", {"__ptm_tx_new_aligned", {0, 1}}},
      {"_ZnwmSt11align_val_tRKSt9nothrow_t",
       {"__ptm_tx_new_aligned_nothrow", {0, 1}}},
      {"_ZnamSt11align_val_tRKSt9nothrow_t",
       {"__ptm_tx_new_aligned_nothrow", {0, 1}}},
      // operator delete / delete[] (sized, aligned, nothrow)
      {"_ZdlPv", {"__ptm_tx_delete", {0}}},
      {"_ZdaPv", {"__ptm_tx_delete", {0}}},
      {"_ZdlPvm", {"__ptm_tx_delete", {0}}},
      {"_ZdaPvm", {"__ptm_tx_delete", {0}}},
      {"_ZdlPvSt11align_val_t", {"__ptm_tx_delete", {0}}},
      {"_ZdaPvSt11align_val_t", {"__ptm_tx_delete", {0}}},
      {"_ZdlPvmSt11align_val_t", {"__ptm_tx_delete", {0}}},
      {"_ZdaPvmSt11align_val_t", {"__ptm_tx_delete", {0}}},
      {"_ZdlPvRKSt9nothrow_t", {"__ptm_tx_delete", {0}}},
      {"_ZdaPvRKSt9nothrow_t", {"__ptm_tx_delete", {0}}},
  };
  auto It = Table.find(N);
  return It == Table.end() ? nullptr : &It->second;
}

CalleeKind CalleeClassifier::classify(const Function &F) const {
  StringRef N = F.getName();
  if (F.isIntrinsic()) {
    switch (F.getIntrinsicID()) {
    case Intrinsic::memcpy:
    case Intrinsic::memcpy_inline:
    case Intrinsic::memmove:
      return CalleeKind::MemTransfer;
    case Intrinsic::memset:
    case Intrinsic::memset_inline:
      return CalleeKind::MemSet;
    default:
      break;
    }
    if (isHarmlessIntrinsic(F.getIntrinsicID()) || F.doesNotAccessMemory() ||
        F.onlyAccessesInaccessibleMemory())
      return CalleeKind::Ignored;
    return CalleeKind::UnsupportedIntrinsic;
  }
  if (N == "ptm_atomic")
    return CalleeKind::AtomicCall;
  if (isPure(F))
    return CalleeKind::Pure;
  if (isRuntimeName(N) || inList(N, CxxRuntimeFunctions))
    return CalleeKind::Runtime;
  if (!F.isDeclaration())
    return CalleeKind::Cloned;
  if (N == "memcpy" || N == "memmove")
    return CalleeKind::MemTransfer;
  if (N == "memset")
    return CalleeKind::MemSet;
  if (allocReplacement(N))
    return CalleeKind::Alloc;
  if (inList(N, LibcFunctions) || inList(N, StdcxxFunctions))
    return CalleeKind::Libc;
  if (inList(N, SetjmpFunctions))
    return CalleeKind::Setjmp;
  if (inList(N, PureFunctions) || F.doesNotAccessMemory() ||
      isEmptyAllocatorMember(N))
    return CalleeKind::Pure;
  if (inList(N, CxxRuntimeFunctions) || isExceptionObjectFunction(N) ||
      isThrowHelper(N))
    return CalleeKind::Runtime;
  if (inList(N, IrrevocableFunctions))
    return CalleeKind::Irrevocable;
  return CalleeKind::External;
}

} // namespace ptm
