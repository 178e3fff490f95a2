/* Signature matching: see detector.h. */
#include "detector.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const detector_dictionary[] = {
    "/bin/sh",      "/etc/passwd", "cmd.exe",    "../../",
    "/etc/shadow",  "wget.http",   "/dev/tcp",   "powershell.exe",
    "union.select", "drop.table",  "/proc/self", "nc.-e",
};
const long detector_numSignature =
    (long)(sizeof detector_dictionary / sizeof detector_dictionary[0]);

bool_t detector_isAttack(const char *data) {
  size_t n = strlen(data);
  char *lower = malloc(n + 1);
  if (!lower)
    abort();
  for (size_t i = 0; i <= n; i++)
    lower[i] = (char)tolower((unsigned char)data[i]);
  bool_t found = FALSE;
  for (long i = 0; i < detector_numSignature && !found; i++)
    found = strstr(lower, detector_dictionary[i]) != NULL;
  free(lower);
  return found;
}
