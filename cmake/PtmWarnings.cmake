# Warnings: the project builds clean with -Wall -Wextra.
set(PTM_WARNING_FLAGS -Wall -Wextra)
