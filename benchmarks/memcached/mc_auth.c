/*
 * mc_auth.c - memcached's ASCII authentication (-Y FILE): FILE holds
 * "user:password" lines; a client authenticates by sending a set whose value
 * is "user password" before any other command (mc_text.c).
 */
#include "mc_auth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 8192

static char **users, **passwords;
static int nentries;

int mc_auth_load(const char *file) {
  FILE *f = fopen(file, "r");
  if (!f) {
    fprintf(stderr, "ptm-memcached: -Y %s: cannot open the auth file\n", file);
    return -1;
  }
  users = calloc(MAX_ENTRIES, sizeof *users);
  passwords = calloc(MAX_ENTRIES, sizeof *passwords);
  char line[1024];
  int lineno = 0, rc = 0;
  while (users && passwords && fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '\0')
      continue;
    char *colon = strchr(line, ':');
    if (!colon || colon == line || nentries == MAX_ENTRIES) {
      fprintf(stderr, "ptm-memcached: -Y %s line %d: not user:password\n", file,
              lineno);
      rc = -1;
      break;
    }
    *colon = '\0';
    users[nentries] = strdup(line);
    passwords[nentries] = strdup(colon + 1);
    nentries++;
  }
  fclose(f);
  if (!users || !passwords)
    rc = -1;
  return rc;
}

/* Compares every byte of the stored password, whatever matches. */
static int same(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  unsigned diff = (unsigned)(na != nb);
  for (size_t i = 0; i < na; i++)
    diff |= (unsigned char)a[i] ^ (unsigned char)(i < nb ? b[i] : 0);
  return diff == 0;
}

int mc_auth_check(const char *user, const char *password) {
  for (int i = 0; i < nentries; i++)
    if (strcmp(users[i], user) == 0 && same(passwords[i], password))
      return 1;
  return 0;
}
