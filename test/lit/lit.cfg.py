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
