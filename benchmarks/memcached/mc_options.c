/*
 * mc_options.c - ptm-memcached's command line: memcached's own options plus
 * --pool, --pool-size, --pool-mode and --durability. Bad arguments: a message
 * and exit status 64.
 */
#include "mc_options.h"
#include "mc_stats.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EX_USAGE 64

static const char usage_text[] =
    "usage: ptm-memcached [options]\n"
    "A memcached-compatible cache whose items live in a ptm persistent pool\n"
    "and change only inside transactions (docs/memcached.md).\n"
    "  -p, --port=NUM          TCP port (default 11211; 0: any free port,\n"
    "                          printed on stderr)\n"
    "  -U, --udp-port=0        UDP is not supported: only 0 is accepted\n"
    "  -l, --listen=ADDR       interface to listen on (default 127.0.0.1)\n"
    "  -t, --threads=NUM       worker threads (default 4, at most 63)\n"
    "  -m, --memory-limit=MB   item memory in megabytes (default 64)\n"
    "  -c, --conn-limit=NUM    max simultaneous connections (default 1024)\n"
    "  -M, --disable-evictions return an error when memory is exhausted\n"
    "  -I, --max-item-size=SZ  largest item, k/m suffix (default 1m,\n"
    "                          1k..32m)\n"
    "  -v, --verbose           verbose (repeat for more)\n"
    "  -u, --user=USER         accepted for compatibility, ignored\n"
    "  -V, --version           print the version and exit\n"
    "  -h, --help              this help\n"
    "      --pool=FILE         the pool file (default $PTM_POOL, else a\n"
    "                          temporary pool removed at exit)\n"
    "      --pool-size=SZ      size of a new pool file, k/m/g suffix\n"
    "                          (default 1g, at least 4x -m)\n"
    "      --pool-mode=OCTAL   permissions of a new pool file (default 600:\n"
    "                          owner-only; at most 777, with the owner's\n"
    "                          read and write bits; sets PTM_POOL_MODE)\n"
    "      --durability=MODE   strict (default): a store is durable when it\n"
    "                          is acknowledged; buffered[:MS]: durable within\n"
    "                          MS ms (1..60000, default 10), a crash may lose\n"
    "                          the last MS ms of stores (lazy gp_/ip_\n"
    "                          libraries only; sets PTM_DURABILITY)\n";

static void bad(const char *fmt, const char *arg) {
  fprintf(stderr, "ptm-memcached: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'ptm-memcached -h' for the options.\n");
  exit(EX_USAGE);
}

static long long number(const char *opt, const char *arg, long long lo,
                        long long hi) {
  char *end;
  errno = 0;
  long long v = strtoll(arg, &end, 10);
  if (errno || end == arg || *end || v < lo || v > hi) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s: '%%s' is not a number in %lld..%lld", opt,
             lo, hi);
    bad(msg, arg);
  }
  return v;
}

/* NUM[k|m|g] in bytes. */
static uint64_t size_arg(const char *opt, const char *arg, uint64_t lo,
                         uint64_t hi) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(arg, &end, 10);
  if (errno || end == arg || arg[0] == '-')
    v = 0, end = (char *)"?";
  switch (tolower((unsigned char)*end)) {
  case 'k':
    v <<= 10, end++;
    break;
  case 'm':
    v <<= 20, end++;
    break;
  case 'g':
    v <<= 30, end++;
    break;
  default:
    break;
  }
  if (*end || v < lo || v > hi) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "%s: '%%s' is not a size in %llu..%llu bytes (k/m/g suffixes)",
             opt, (unsigned long long)lo, (unsigned long long)hi);
    bad(msg, arg);
  }
  return v;
}

int mc_parse_durability(const char *text) {
  static const char word[] = "buffered";
  if (strcmp(text, "strict") == 0)
    return 0;
  if (strncmp(text, word, sizeof word - 1) != 0)
    return -1;
  const char *p = text + sizeof word - 1;
  if (*p == '\0')
    return 10;
  if (*p++ != ':' || *p == '\0')
    return -1;
  long ms = 0;
  for (; *p; p++) {
    if (*p < '0' || *p > '9')
      return -1;
    ms = ms * 10 + (*p - '0');
    if (ms > 60000)
      return -1;
  }
  return ms >= 1 ? (int)ms : -1;
}

int mc_pool_mode_ok(const char *text) {
  size_t n = strlen(text);
  unsigned mode = 0;
  if (n == 0 || n > 4)
    return 0;
  for (size_t i = 0; i < n; i++) {
    if (text[i] < '0' || text[i] > '7')
      return 0;
    mode = mode * 8 + (unsigned)(text[i] - '0');
  }
  return mode <= 0777 && (mode & 0600) == 0600;
}

void mc_parse_options(int argc, char **argv, mc_settings *s) {
  static const struct option longopts[] = {
      {"port", required_argument, NULL, 'p'},
      {"udp-port", required_argument, NULL, 'U'},
      {"listen", required_argument, NULL, 'l'},
      {"threads", required_argument, NULL, 't'},
      {"memory-limit", required_argument, NULL, 'm'},
      {"conn-limit", required_argument, NULL, 'c'},
      {"disable-evictions", no_argument, NULL, 'M'},
      {"max-item-size", required_argument, NULL, 'I'},
      {"verbose", no_argument, NULL, 'v'},
      {"user", required_argument, NULL, 'u'},
      {"version", no_argument, NULL, 'V'},
      {"help", no_argument, NULL, 'h'},
      {"pool", required_argument, NULL, 'P'},
      {"pool-size", required_argument, NULL, 'S'},
      {"pool-mode", required_argument, NULL, 'O'},
      {"durability", required_argument, NULL, 'D'},
      {NULL, 0, NULL, 0}};
  s->port = 11211;
  s->listen = "127.0.0.1";
  s->threads = 4;
  s->mem_limit = 64ull << 20;
  s->item_max = 1u << 20;
  s->max_conns = 1024;
  s->verbose = 0;
  s->evict = 1;
  s->pool = getenv("PTM_POOL");
  if (s->pool && !*s->pool)
    s->pool = NULL;
  s->pool_size = 0;
  s->pool_mode = NULL;
  s->durability = NULL;
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, ":p:U:l:t:m:c:MI:vu:Vh", longopts,
                            NULL)) != -1) {
    switch (opt) {
    case 'p':
      s->port = (int)number("-p", optarg, 0, 65535);
      break;
    case 'U':
      if (number("-U", optarg, 0, 65535) != 0)
        bad("-U %s: UDP is not supported (use -U 0)", optarg);
      break;
    case 'l':
      if (!*optarg)
        bad("-l: empty address%s", "");
      s->listen = optarg;
      break;
    case 't':
      s->threads = (int)number("-t", optarg, 1, 63);
      break;
    case 'm':
      s->mem_limit = (uint64_t)number("-m", optarg, 1, 1 << 20) << 20;
      break;
    case 'c':
      s->max_conns = (int)number("-c", optarg, 1, 1000000);
      break;
    case 'M':
      s->evict = 0;
      break;
    case 'I':
      s->item_max = size_arg("-I", optarg, 1024, 32u << 20);
      break;
    case 'v':
      s->verbose++;
      break;
    case 'u':
      break;
    case 'V':
      printf("memcached %s\n", MC_VERSION);
      exit(0);
    case 'h':
      fputs(usage_text, stdout);
      exit(0);
    case 'P':
      if (!*optarg)
        bad("--pool: empty file name%s", "");
      s->pool = optarg;
      break;
    case 'S':
      s->pool_size = size_arg("--pool-size", optarg, 16u << 20, 1ull << 42);
      break;
    case 'O':
      if (!mc_pool_mode_ok(optarg))
        bad("--pool-mode: '%s' is not a file mode (octal, at most 777, with "
            "the owner's read and write bits: e.g. 600, 640)",
            optarg);
      s->pool_mode = optarg;
      break;
    case 'D':
      if (mc_parse_durability(optarg) < 0)
        bad("--durability: '%s' is not 'strict', 'buffered' or "
            "'buffered:MS' (MS: milliseconds, 1..60000)",
            optarg);
      s->durability = optarg;
      break;
    case ':':
      bad("option '%s' needs an argument", argv[optind - 1]);
      break;
    default:
      bad("unknown option '%s'", argv[optind - 1]);
      break;
    }
  }
  if (optind < argc)
    bad("unexpected argument '%s'", argv[optind]);
  if (s->pool_size == 0) {
    s->pool_size = 1ull << 30;
    if (s->pool_size < 4 * s->mem_limit)
      s->pool_size = 4 * s->mem_limit;
  } else if (s->pool_size < 2 * s->mem_limit) {
    bad("--pool-size must be at least twice -m%s", "");
  }
}
