/*
 * mc_options.c - ptm-memcached's command line: memcached's own options plus
 * --pool, --pool-size, --pool-mode and --durability. Bad arguments: a message
 * and exit status 64.
 */
#include "mc_options.h"
#include "mc_conn.h"
#include "mc_stats.h"
#include "mc_store.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EX_USAGE 64

static const char usage_text[] =
    "usage: ptm-memcached [options]\n"
    "A memcached-compatible cache whose items live in a ptm persistent pool\n"
    "and change only inside transactions (docs/memcached.md).\n"
    "  -p, --port=NUM          TCP port (default 11211; -1: any free port,\n"
    "                          printed on stderr; 0: no TCP)\n"
    "  -U, --udp-port=NUM      UDP port (default 0, off; -1: any free port)\n"
    "  -s, --unix-socket=FILE  UNIX socket to listen on (disables network\n"
    "                          support)\n"
    "  -a, --unix-mask=MASK    access mask of the UNIX socket, octal\n"
    "                          (default 700)\n"
    "  -A, --enable-shutdown   enable the shutdown command\n"
    "  -l, --listen=ADDR       interfaces to listen on, comma separated\n"
    "                          (default 127.0.0.1)\n"
    "  -d, --daemon            run as a daemon\n"
    "  -P, --pidfile=FILE      write the pid there (with -d)\n"
    "  -t, --threads=NUM       worker threads (default 4, at most 253; a new\n"
    "                          pool gets a thread slot for each, an existing\n"
    "                          one must have them)\n"
    "  -m, --memory-limit=MB   item memory in megabytes, in 1 MiB slab pages\n"
    "                          (default 64)\n"
    "  -c, --conn-limit=NUM    max simultaneous connections (default 1024)\n"
    "  -M, --disable-evictions return an error when memory is exhausted\n"
    "  -I, --max-item-size=SZ  largest item, k/m suffix (default 1m,\n"
    "                          1k..32m)\n"
    "  -R, --max-reqs-per-event=NUM  requests served per turn of a\n"
    "                          connection (default 20)\n"
    "  -C, --disable-cas       disable the use of CAS\n"
    "  -b, --listen-backlog=NUM  listen backlog (default 1024)\n"
    "  -B, --protocol=NAME     ascii, binary or auto (default auto)\n"
    "  -F, --disable-flush-all disable the flush_all command\n"
    "  -X, --disable-dumping   disable stats cachedump and lru_crawler\n"
    "                          metadump\n"
    "  -W, --disable-watch     disable the watch command\n"
    "  -Y, --auth-file=FILE    ASCII authentication: user:password lines\n"
    "  -D CHAR                 key prefix delimiter of stats detail\n"
    "                          (default :)\n"
    "  -e, --memory-file=FILE  the pool file (memcached's restartable memory\n"
    "                          file; same as --pool)\n"
    "  -o, --extended=LIST     idle_timeout=S, read_buf_mem_limit=MB,\n"
    "                          hashpower=N (a new cache's 2^N hash buckets,\n"
    "                          default 16; the table grows online),\n"
    "                          no_hashexpand,\n"
    "                          watcher_logbuf_size=KB (each watcher's\n"
    "                          buffer, default 256); the\n"
    "                          slab and LRU tuning options are accepted and\n"
    "                          have nothing to tune here\n"
    "  -v, --verbose           verbose (repeat for more)\n"
    "  -u, --user=USER         accepted for compatibility, ignored\n"
    "  -f, --slab-growth-factor=F, -n, --slab-min-size=BYTES\n"
    "                          memcached's slab class table (default 1.25,\n"
    "                          48): the size classes of -m and of stats\n"
    "                          items/slabs\n"
    "  -k, -L, -r              accepted for compatibility, ignored\n"
    "  -V, --version           print the version and exit\n"
    "  -h, --help              this help\n"
    "      --pool=FILE         the pool file (default $PTM_POOL, else a\n"
    "                          temporary pool removed at exit)\n"
    "      --pool-size=SZ      size of a new pool file, k/m/g suffix\n"
    "                          (default 1g, at least 4x -m)\n"
    "      --pool-mode=OCTAL   permissions of a new pool file (default 600:\n"
    "                          owner-only; at most 777, with the owner's\n"
    "                          read and write bits; sets PTM_POOL_MODE)\n"
    "      --pool-sparse       a new pool file is sparse: its space is not\n"
    "                          reserved, and the server is killed (SIGBUS)\n"
    "                          if the file system fills (sets\n"
    "                          PTM_POOL_SPARSE=1)\n"
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

/* -e FILE: memcached keeps its restart metadata in FILE.meta, and refuses
 * to start on one it cannot use. ptm-memcached never writes one (the pool
 * is recovered on its own), so one beside FILE was left by memcached: FILE
 * is memcached's memory, not a pool, and is not touched. */
static void refuse_restart_metadata(const char *file) {
  char meta[4096];
  if (snprintf(meta, sizeof meta, "%s.meta", file) >= (int)sizeof meta)
    bad("-e %s: file name too long", file);
  if (access(meta, F_OK) == 0)
    bad("-e: %s is memcached's restart metadata (ptm-memcached writes none); "
        "remove it, or give a pool file",
        meta);
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
/* memcached-debug's T_MEMD_INITIAL_MALLOC (memcached's test suite, 64bit.t):
 * the slab memory counted as handed out before the first page, a decimal
 * byte count (memcached ignores anything else, and so does this). Only
 * with PTM_MEMCACHED_DEBUG=1, the test suite's switch. (memcached 1.6.45
 * no longer reads T_MEMD_SLABS_ALLOC; nothing is preallocated here.) */
static void debug_initial_malloc(mc_settings *s) {
  const char *on = getenv("PTM_MEMCACHED_DEBUG");
  const char *v = getenv("T_MEMD_INITIAL_MALLOC");
  if (!on || strcmp(on, "1") != 0 || !v || !*v)
    return;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno == 0 && *end == '\0' && v[0] >= '0' && v[0] <= '9')
    s->malloc_base = n;
}

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

/* memcached's -o settings that tune its slab allocator, LRU, hash function,
 * logger buffers or privileges: structures ptm-memcached does not have (items
 * are pool blocks), so they are accepted and change nothing. */
static const char *const tuning_opts[] = {
    "maxconns_fast",       "no_maxconns_fast",
    "slab_reassign",       "no_slab_reassign",
    "slab_automove",       "no_slab_automove",
    "slab_automove_ratio", "slab_automove_window",
    "tail_repair_time",    "hash_algorithm",
    "lru_crawler",         "no_lru_crawler",
    "lru_crawler_sleep",   "lru_crawler_tocrawl",
    "lru_maintainer",      "no_lru_maintainer",
    "hot_lru_pct",         "warm_lru_pct",
    "hot_max_factor",      "warm_max_factor",
    "temporary_ttl",       "worker_logbuf_size",
    "slab_sizes",          "slab_chunk_max",
    "track_sizes",         "no_inline_ascii_resp",
    "inline_ascii_resp",   "modern",
    "no_modern",           "no_chunked_items",
    "drop_privileges",     "no_drop_privileges",
    "relaxed_privileges",  "resp_obj_mem_limit",
    "sock_cookie_id",      NULL};

/* -o LIST: comma-separated NAME[=VALUE] settings. */
static void extended(const char *list, mc_settings *s) {
  char buf[1024];
  if (strlen(list) >= sizeof buf)
    bad("-o: '%s' is too long", list);
  strcpy(buf, list);
  char *save = NULL;
  for (char *opt = strtok_r(buf, ",", &save); opt;
       opt = strtok_r(NULL, ",", &save)) {
    char *value = strchr(opt, '=');
    if (value)
      *value++ = '\0';
    if (strcmp(opt, "idle_timeout") == 0) {
      if (!value)
        bad("-o idle_timeout needs a value in seconds%s", "");
      s->idle_timeout = (int)number("-o idle_timeout", value, 0, INT32_MAX);
      continue;
    }
    if (strcmp(opt, "read_buf_mem_limit") == 0) {
      if (!value)
        bad("-o read_buf_mem_limit needs a value in megabytes%s", "");
      s->read_buf_mem_limit =
          (uint64_t)number("-o read_buf_mem_limit", value, 0, 1 << 20);
      continue;
    }
    if (strcmp(opt, "hashpower") == 0) {
      /* memcached's range; a power-of-two bucket array of 2^N chains */
      if (!value)
        bad("-o hashpower needs a value (12..32)%s", "");
      s->hash_power_init = (int)number("-o hashpower", value, 12, 32);
      continue;
    }
    if (strcmp(opt, "watcher_logbuf_size") == 0) {
      /* memcached's unit: kilobytes */
      if (!value)
        bad("-o watcher_logbuf_size needs a value in kilobytes%s", "");
      s->watcher_buf_kb =
          (int)number("-o watcher_logbuf_size", value, 1, 1 << 20);
      continue;
    }
    if (strcmp(opt, "no_hashexpand") == 0) {
      s->no_hash_expand = 1;
      continue;
    }
    if (strcmp(opt, "lru_crawler") == 0 || strcmp(opt, "no_lru_crawler") == 0) {
      s->lru_crawler = opt[0] == 'l';
      continue;
    }
    if (strncmp(opt, "ssl_", 4) == 0)
      bad("-o %s: TLS is not supported (docs/memcached.md)", opt);
    if (strncmp(opt, "ext_", 4) == 0)
      bad("-o %s: extstore is not supported: the pool holds every item "
          "(docs/memcached.md)",
          opt);
    if (strncmp(opt, "proxy_", 6) == 0)
      bad("-o %s: the proxy is not supported (docs/memcached.md)", opt);
    int known = 0;
    for (int i = 0; tuning_opts[i] && !known; i++)
      known = strcmp(opt, tuning_opts[i]) == 0;
    if (!known)
      bad("-o: illegal suboption '%s'", opt);
  }
}

void mc_parse_options(int argc, char **argv, mc_settings *s) {
  static const struct option longopts[] = {
      {"port", required_argument, NULL, 'p'},
      {"udp-port", required_argument, NULL, 'U'},
      {"unix-socket", required_argument, NULL, 's'},
      {"unix-mask", required_argument, NULL, 'a'},
      {"enable-shutdown", no_argument, NULL, 'A'},
      {"listen", required_argument, NULL, 'l'},
      {"daemon", no_argument, NULL, 'd'},
      {"pidfile", required_argument, NULL, 'P'},
      {"enable-coredumps", no_argument, NULL, 'r'},
      {"lock-memory", no_argument, NULL, 'k'},
      {"threads", required_argument, NULL, 't'},
      {"memory-limit", required_argument, NULL, 'm'},
      {"conn-limit", required_argument, NULL, 'c'},
      {"disable-evictions", no_argument, NULL, 'M'},
      {"max-item-size", required_argument, NULL, 'I'},
      {"max-reqs-per-event", required_argument, NULL, 'R'},
      {"disable-cas", no_argument, NULL, 'C'},
      {"listen-backlog", required_argument, NULL, 'b'},
      {"protocol", required_argument, NULL, 'B'},
      {"disable-flush-all", no_argument, NULL, 'F'},
      {"disable-dumping", no_argument, NULL, 'X'},
      {"disable-watch", no_argument, NULL, 'W'},
      {"auth-file", required_argument, NULL, 'Y'},
      {"memory-file", required_argument, NULL, 'e'},
      {"extended", required_argument, NULL, 'o'},
      {"slab-growth-factor", required_argument, NULL, 'f'},
      {"slab-min-size", required_argument, NULL, 'n'},
      {"enable-largepages", no_argument, NULL, 'L'},
      {"verbose", no_argument, NULL, 'v'},
      {"user", required_argument, NULL, 'u'},
      {"version", no_argument, NULL, 'V'},
      {"help", no_argument, NULL, 'h'},
      {"pool", required_argument, NULL, 1},
      {"pool-size", required_argument, NULL, 2},
      {"pool-mode", required_argument, NULL, 3},
      {"durability", required_argument, NULL, 4},
      {"pool-sparse", no_argument, NULL, 5},
      {NULL, 0, NULL, 0}};
  memset(s, 0, sizeof *s);
  s->port = 11211;
  s->listen = "127.0.0.1";
  s->threads = 4;
  s->mem_limit = 64ull << 20;
  s->item_max = 1u << 20;
  s->max_conns = 1024;
  s->evict = 1;
  s->pool = getenv("PTM_POOL");
  if (s->pool && !*s->pool)
    s->pool = NULL;
  s->unix_mask = 0700;
  s->backlog = 1024;
  s->protocol = MC_PROTO_UNKNOWN;
  s->cas_enabled = 1;
  s->reqs_per_event = 20;
  s->flush_enabled = 1;
  s->dump_enabled = 1;
  s->watch_enabled = 1;
  s->watcher_buf_kb = 256; /* memcached's default */
  s->prefix_delimiter = ':';
  s->growth_factor = 1.25;
  s->chunk_size = 48;
  opterr = 0;
  int opt, port_given = 0;
  while (
      (opt = getopt_long(
           argc, argv, ":p:U:s:a:Al:dP:rkt:m:c:MI:R:Cb:B:FXWY:e:o:f:n:LD:vu:Vh",
           longopts, NULL)) != -1) {
    switch (opt) {
    case 'p':
      s->port = (int)number("-p", optarg, -1, 65535);
      port_given = 1;
      break;
    case 'U':
      s->udp_port = (int)number("-U", optarg, -1, 65535);
      break;
    case 's':
      if (!*optarg || strlen(optarg) >= 108)
        bad("-s: '%s' is not a socket path (1..107 bytes)", optarg);
      s->unix_socket = optarg;
      break;
    case 'a': {
      char *end;
      errno = 0;
      long mask = strtol(optarg, &end, 8);
      if (errno || end == optarg || *end || mask < 0 || mask > 0777)
        bad("-a: '%s' is not an octal access mask", optarg);
      s->unix_mask = (int)mask;
      break;
    }
    case 'A':
      s->shutdown_enabled = 1;
      break;
    case 'l':
      if (!*optarg)
        bad("-l: empty address%s", "");
      s->listen = optarg;
      break;
    case 'd':
      s->daemonize = 1;
      break;
    case 'P':
      s->pidfile = optarg;
      break;
    case 'r':
    case 'k':
    case 'L':
      break;
    case 't':
      s->threads = (int)number("-t", optarg, 1, MC_MAX_WORKERS);
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
    case 'R':
      s->reqs_per_event = (int)number("-R", optarg, 1, INT32_MAX);
      break;
    case 'C':
      s->cas_enabled = 0;
      break;
    case 'b':
      s->backlog = (int)number("-b", optarg, 1, INT32_MAX);
      break;
    case 'B':
      if (strcmp(optarg, "auto") == 0)
        s->protocol = MC_PROTO_UNKNOWN;
      else if (strcmp(optarg, "ascii") == 0)
        s->protocol = MC_PROTO_TEXT;
      else if (strcmp(optarg, "binary") == 0)
        s->protocol = MC_PROTO_BINARY;
      else
        bad("-B: '%s' is not ascii, binary or auto", optarg);
      break;
    case 'F':
      s->flush_enabled = 0;
      break;
    case 'X':
      s->dump_enabled = 0;
      break;
    case 'W':
      s->watch_enabled = 0;
      break;
    case 'Y':
      s->auth_file = optarg;
      break;
    case 'e':
    case 1:
      if (!*optarg)
        bad("%s: empty file name", opt == 1 ? "--pool" : "-e");
      if (opt == 'e')
        refuse_restart_metadata(optarg);
      s->pool = optarg;
      break;
    case 'o':
      extended(optarg, s);
      break;
    case 'f': {
      char *end;
      errno = 0;
      s->growth_factor = strtod(optarg, &end);
      if (errno || end == optarg || *end || !(s->growth_factor > 1.0))
        bad("-f: '%s' is not a factor greater than 1", optarg);
      break;
    }
    case 'n':
      s->chunk_size = (int)number("-n", optarg, 1, 1 << 20);
      break;
    case 'D':
      if (strlen(optarg) != 1)
        bad("-D: '%s' is not one character", optarg);
      s->prefix_delimiter = optarg[0];
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
    case 2:
      s->pool_size = size_arg("--pool-size", optarg, 16u << 20, 1ull << 42);
      break;
    case 5:
      /* read by the runtime when it creates the pool file */
      if (setenv("PTM_POOL_SPARSE", "1", 1) != 0)
        bad("--pool-sparse: cannot set PTM_POOL_SPARSE%s", "");
      break;
    case 3:
      if (!mc_pool_mode_ok(optarg))
        bad("--pool-mode: '%s' is not a file mode (octal, at most 777, with "
            "the owner's read and write bits: e.g. 600, 640)",
            optarg);
      s->pool_mode = optarg;
      break;
    case 4:
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
      if (optopt == 'S' || optopt == 'Z')
        bad("%s: SASL and TLS are not supported (docs/memcached.md)",
            argv[optind - 1]);
      bad("unknown option '%s'", argv[optind - 1]);
      break;
    }
  }
  if (optind < argc)
    bad("unexpected argument '%s'", argv[optind]);
  /* memcached: -U alone puts TCP on the same port */
  if (!port_given && s->udp_port != 0)
    s->port = s->udp_port;
  debug_initial_malloc(s);
  /* the memory items can take: -m less what memcached-debug counts as
   * handed out already (a limit it leaves no room under still grants each
   * class its first page) */
  uint64_t items =
      s->malloc_base < s->mem_limit ? s->mem_limit - s->malloc_base : 1u << 20;
  if (s->pool_size == 0) {
    s->pool_size = 1ull << 30;
    if (s->pool_size < 4 * items)
      s->pool_size = 4 * items;
  } else if (s->pool_size < 2 * items) {
    bad("--pool-size must be at least twice -m%s", "");
  }
}
