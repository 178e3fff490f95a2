# Runs two programs (PROG and REF) and checks that both exit 0 with the same
# stdout; with SYMBOL_RE and NM, also checks that PROG defines a symbol
# matching SYMBOL_RE (proof that the plugin transformed it).
foreach(p PROG REF)
  execute_process(COMMAND ${${p}} RESULT_VARIABLE rc_${p} OUTPUT_VARIABLE out_${p}
                  ERROR_VARIABLE err_${p} TIMEOUT 60)
  message("${p} (${${p}}): exit ${rc_${p}}\n${out_${p}}${err_${p}}")
  if(NOT rc_${p} EQUAL 0)
    message(FATAL_ERROR "${p} exited with ${rc_${p}}")
  endif()
endforeach()
if(NOT out_PROG STREQUAL out_REF)
  message(FATAL_ERROR "outputs differ")
endif()
if(SYMBOL_RE)
  execute_process(COMMAND ${NM} ${PROG} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT syms MATCHES "${SYMBOL_RE}")
    message(FATAL_ERROR "${PROG} has no symbol matching '${SYMBOL_RE}': was it compiled with the plugin?")
  endif()
endif()
