# lit configuration of the plugin tests: IR (and small C/C++ sources) run
# through the ptm pass, checked with FileCheck.
import os

import lit.formats

config.name = "ptm-plugin"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".cpp"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptm_build_dir, "test", "lit")

plugin = config.ptm_plugin
include = config.ptm_include_dir
tools = config.llvm_tools_dir

config.substitutions.append(
    ("%opt", f"{tools}/opt -load-pass-plugin={plugin} -passes=ptm-instrument")
)
# opt with the plugin loaded and no pipeline, for tests that choose their own
# -passes (e.g. the pass twice).
config.substitutions.append(("%ptm_opt", f"{tools}/opt -load-pass-plugin={plugin}"))
# clang without the plugin, for the -fpass-plugin= path.
config.substitutions.append(("%cc_noplugin", f"{tools}/clang -I{include}"))
config.substitutions.append(("%clangxx", f"{tools}/clang++ -fplugin={plugin} -I{include}"))
config.substitutions.append(("%clang", f"{tools}/clang -fplugin={plugin} -I{include}"))
config.substitutions.append(("%ptm_plugin", plugin))
config.substitutions.append(("%ptm_include", include))
config.substitutions.append(("FileCheck", f"{tools}/FileCheck"))
config.substitutions.append(("%not", f"{tools}/not"))
config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", "")])

# The LLVM major the plugin is built against (PTM_LLVM_VERSION): feature
# llvm-N for REQUIRES/UNSUPPORTED.
llvm_major = int(config.llvm_version_major)
config.available_features.add(f"llvm-{llvm_major}")
# `%llvm_ir FILE`: FILE's IR in the form this LLVM reads (then `| %opt -S`).
# The tests are written for LLVM 19; before 19, va_start, va_end and va_copy
# had no pointer-type suffix (.p0). Their CHECK lines accept both names.
if llvm_major < 19:
    va_renames = " ".join(
        f"-e 's/@llvm[.]va_{n}[.]p0[(]/@llvm.va_{n}(/'" for n in ("start", "end", "copy")
    )
    config.substitutions.append(("%llvm_ir", f"sed {va_renames}"))
else:
    config.substitutions.append(("%llvm_ir", "cat"))

# Another LLVM major's clang, opt and ld.lld, when one is installed (feature
# other-llvm): the plugin must refuse to run in them (version/).
config.substitutions.append(("%llvm_major", str(llvm_major)))
if config.other_llvm_major:
    other = config.other_llvm_tools_dir
    config.available_features.add("other-llvm")
    config.substitutions.append(("%other_major", config.other_llvm_major))
    config.substitutions.append(("%other_clang", f"{other}/clang"))
    config.substitutions.append(("%other_opt", f"{other}/opt"))
    if os.path.exists(os.path.join(other, "ld.lld")):
        config.available_features.add("other-lld")
