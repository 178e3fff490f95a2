/* ptm-mc-load: a memcached load generator (text protocol) that checks every
 * answer and measures latency percentiles. docs/memcached.md, "Load".
 *
 *   ptm-mc-load -s HOST:PORT [-c CONNS] [-P DEPTH] [-k KEYS] [-v BYTES]
 *               [-r GET_PERCENT] [-d SECONDS | -n OPS] [--preload] [--seed N]
 *
 * One thread, one epoll loop over CONNS connections. Each connection keeps
 * DEPTH requests outstanding (pipelined: new requests go out in one write
 * as answers come back). A request is a `get` (GET_PERCENT of them, default
 * 90) or a `set` of a key drawn uniformly from KEYS keys. The value of a key
 * is a function of the key, so every hit is checked byte for byte; a wrong
 * value, a malformed answer or a refused set is an error. --preload first
 * sets every key once (one connection, PRELOAD_DEPTH requests
 * outstanding), so gets hit unless the
 * server evicted. The run ends after SECONDS (default 5) or OPS answered
 * requests, counted, not timed: with -n the figures but the rate do not
 * depend on the machine's speed.
 *
 * Latency is the time from the write that sent a request to the read that
 * completed its answer (with DEPTH > 1 it includes the queueing behind the
 * earlier requests of the pipeline), in 100 ns buckets up to 100 ms.
 * Prints one line:
 *   RESULT client=ptm-mc-load ops=N secs=S ops_per_s=R gets=G hits=H
 *          misses=M sets=W errors=E p50_us=.. p90_us=.. p99_us=..
 *          p999_us=.. max_us=..
 * and exits 1 if any error occurred (the first few are described on
 * stderr), 2 on bad arguments or a connection failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 1024
#define MAX_DEPTH 256
#define PRELOAD_DEPTH 64 /* the preload's pipeline, whatever -P */
#define BUCKET_NS 100
#define NBUCKETS (1000000) /* 100 ms in 100 ns buckets; beyond: the last */
#define IN_CAP (1 << 20)
#define MAX_VALUE (512 * 1024)

typedef struct {
  bool get;
  uint32_t key;
  uint64_t sent_ns;
} pending_t;

typedef struct {
  int fd;
  pending_t q[MAX_DEPTH]; /* outstanding requests, oldest first (a ring) */
  unsigned head, count;
  char *in; /* unparsed answer bytes */
  size_t in_len;
} conn_t;

static struct {
  const char *server;
  unsigned conns, depth, keys, value_size, get_pct;
  double secs;
  uint64_t ops; /* 0: run for secs */
  bool preload;
  uint64_t seed;
} opt = {NULL, 16, 1, 100000, 64, 90, 5.0, 0, false, 1};

static struct {
  uint64_t answered, gets, hits, misses, sets, errors;
} count;

static uint64_t *hist;
static uint64_t max_ns;
static uint64_t issued; /* requests sent (with -n: at most opt.ops) */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t rng_state;
static uint64_t rng(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}

static void usage(void) {
  fprintf(stderr,
          "usage: ptm-mc-load -s HOST:PORT [-c CONNS] [-P DEPTH] [-k KEYS] "
          "[-v BYTES] [-r GET_PERCENT] [-d SECONDS | -n OPS] [--preload] "
          "[--seed N]\n");
  exit(2);
}

static unsigned long long number(const char *what, const char *s,
                                 unsigned long long lo, unsigned long long hi) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *s == '\0' || *end != '\0' || s[0] == '-' || v < lo || v > hi) {
    fprintf(stderr,
            "ptm-mc-load: %s must be a number from %llu to %llu, "
            "not '%s'\n",
            what, lo, hi, s);
    exit(2);
  }
  return v;
}

static void parse_args(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--preload")) {
      opt.preload = true;
      continue;
    }
    if (i + 1 >= argc)
      usage();
    const char *v = argv[++i];
    if (!strcmp(a, "-s"))
      opt.server = v;
    else if (!strcmp(a, "-c"))
      opt.conns = (unsigned)number("-c", v, 1, MAX_CONNS);
    else if (!strcmp(a, "-P"))
      opt.depth = (unsigned)number("-P", v, 1, MAX_DEPTH);
    else if (!strcmp(a, "-k"))
      opt.keys = (unsigned)number("-k", v, 1, 100000000);
    else if (!strcmp(a, "-v"))
      opt.value_size = (unsigned)number("-v", v, 1, MAX_VALUE);
    else if (!strcmp(a, "-r"))
      opt.get_pct = (unsigned)number("-r", v, 0, 100);
    else if (!strcmp(a, "-n"))
      opt.ops = number("-n", v, 1, 1000000000000ull);
    else if (!strcmp(a, "--seed"))
      opt.seed = number("--seed", v, 1, UINT64_MAX);
    else if (!strcmp(a, "-d")) {
      char *end;
      opt.secs = strtod(v, &end);
      if (*end || !(opt.secs > 0 && opt.secs <= 86400)) {
        fprintf(stderr,
                "ptm-mc-load: -d must be seconds in (0, 86400], "
                "not '%s'\n",
                v);
        exit(2);
      }
    } else
      usage();
  }
  if (!opt.server)
    usage();
}

static int connect_to(const char *server) {
  char host[256];
  const char *colon = strrchr(server, ':');
  if (!colon || (size_t)(colon - server) >= sizeof host) {
    fprintf(stderr, "ptm-mc-load: -s wants HOST:PORT, not '%s'\n", server);
    exit(2);
  }
  memcpy(host, server, (size_t)(colon - server));
  host[colon - server] = '\0';
  struct addrinfo hints = {0}, *res;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, colon + 1, &hints, &res);
  if (rc) {
    fprintf(stderr, "ptm-mc-load: %s: %s\n", server, gai_strerror(rc));
    exit(2);
  }
  int fd = socket(res->ai_family, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
    fprintf(stderr, "ptm-mc-load: cannot connect to %s: %s\n", server,
            strerror(errno));
    exit(2);
  }
  freeaddrinfo(res);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

/* The value of key K: printable bytes that depend on K and the position. */
static void value_of(uint32_t k, char *out) {
  for (unsigned i = 0; i < opt.value_size; ++i)
    out[i] = (char)('a' + (k * 7u + i * 13u) % 26u);
}

static int key_name(uint32_t k, char *out) {
  return sprintf(out, "ptmload:%u", k);
}

static void bad_answer(const char *what, uint32_t key) {
  if (count.errors++ < 5)
    fprintf(stderr, "ptm-mc-load: %s (key ptmload:%u)\n", what, key);
}

/* Appends request P to BUF (which has room); returns the bytes added. */
static size_t format_request(const pending_t *p, char *buf) {
  char key[32];
  key_name(p->key, key);
  if (p->get)
    return (size_t)sprintf(buf, "get %s\r\n", key);
  size_t n = (size_t)sprintf(buf, "set %s 0 0 %u\r\n", key, opt.value_size);
  value_of(p->key, buf + n);
  n += opt.value_size;
  memcpy(buf + n, "\r\n", 2);
  return n + 2;
}

static void record(uint64_t ns) {
  uint64_t b = ns / BUCKET_NS;
  hist[b < NBUCKETS ? b : NBUCKETS - 1]++;
  if (ns > max_ns)
    max_ns = ns;
}

/* Parses the answer to C's oldest request at the front of its input: the
 * bytes it took, 0 if incomplete. */
static size_t parse_one(conn_t *c, char *scratch) {
  const pending_t *p = &c->q[c->head];
  char *s = c->in;
  char *eol = memmem(s, c->in_len, "\r\n", 2);
  if (!eol)
    return 0;
  size_t line = (size_t)(eol - s) + 2;
  if (!p->get) {
    if (line != 8 || memcmp(s, "STORED", 6) != 0)
      bad_answer("a set was not STORED", p->key);
    count.sets++;
    return line;
  }
  if (line == 5 && memcmp(s, "END", 3) == 0) {
    count.gets++;
    count.misses++;
    return line;
  }
  char key[32], want[32];
  unsigned flags, bytes;
  key_name(p->key, want);
  if (sscanf(s, "VALUE %31s %u %u", key, &flags, &bytes) != 3 ||
      strcmp(key, want) != 0 || bytes > MAX_VALUE) {
    bad_answer("a get answered neither VALUE of its key nor END", p->key);
    count.gets++;
    return c->in_len; /* out of step: drop what came */
  }
  size_t total = line + bytes + 2 + 5;
  if (c->in_len < total)
    return 0;
  count.gets++;
  count.hits++;
  value_of(p->key, scratch);
  if (bytes != opt.value_size || memcmp(s + line, scratch, bytes) != 0 ||
      memcmp(s + line + bytes, "\r\nEND\r\n", 7) != 0)
    bad_answer("a get returned a wrong value", p->key);
  return total;
}

static bool want_more(uint64_t deadline) {
  if (opt.ops)
    return issued < opt.ops;
  return now_ns() < deadline;
}

/* Sends requests until C has DEPTH outstanding (or the run wants no more). */
static void fill(conn_t *c, char *out, bool preload, uint32_t *next_key,
                 uint64_t deadline) {
  size_t len = 0;
  uint64_t t = now_ns();
  unsigned depth = preload ? PRELOAD_DEPTH : opt.depth;
  while (c->count < depth) {
    pending_t *p = &c->q[(c->head + c->count) % MAX_DEPTH];
    if (preload) {
      if (*next_key >= opt.keys)
        break;
      p->get = false;
      p->key = (*next_key)++;
    } else {
      if (!want_more(deadline))
        break;
      p->get = rng() % 100 < opt.get_pct;
      p->key = (uint32_t)(rng() % opt.keys);
      issued++;
    }
    p->sent_ns = t;
    len += format_request(p, out + len);
    c->count++;
  }
  for (size_t off = 0; off < len;) {
    ssize_t n = write(c->fd, out + off, len - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      fprintf(stderr, "ptm-mc-load: write: %s\n", strerror(errno));
      exit(2);
    }
    off += (size_t)n;
  }
}

/* Reads what C's server sent, completes the answers it holds. False: the
 * server closed the connection. */
static bool drain(conn_t *c, char *scratch, bool measure) {
  ssize_t n = read(c->fd, c->in + c->in_len, IN_CAP - c->in_len);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return true;
  if (n <= 0)
    return false;
  c->in_len += (size_t)n;
  uint64_t t = now_ns();
  while (c->count > 0) {
    size_t used = parse_one(c, scratch);
    if (used == 0)
      break;
    if (measure) {
      record(t - c->q[c->head].sent_ns);
      count.answered++;
    }
    memmove(c->in, c->in + used, c->in_len - used);
    c->in_len -= used;
    c->head = (c->head + 1) % MAX_DEPTH;
    c->count--;
  }
  if (c->in_len == IN_CAP) {
    bad_answer("an answer larger than the input buffer", 0);
    c->in_len = 0;
  }
  return true;
}

static double percentile(double q, uint64_t total) {
  uint64_t want = (uint64_t)(q * (double)total);
  uint64_t seen = 0;
  for (uint64_t b = 0; b < NBUCKETS; ++b) {
    seen += hist[b];
    if (seen > want)
      return (double)(b * BUCKET_NS + BUCKET_NS / 2) / 1000.0;
  }
  return (double)max_ns / 1000.0;
}

/* Runs until every request the run wants is answered. */
static void run(conn_t *conns, unsigned n, bool preload, char *out,
                char *scratch) {
  int ep = epoll_create1(0);
  for (unsigned i = 0; i < n; ++i) {
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
    epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &ev);
  }
  uint32_t next_key = 0;
  uint64_t deadline = now_ns() + (uint64_t)(opt.secs * 1e9);
  for (unsigned i = 0; i < n; ++i)
    fill(&conns[i], out, preload, &next_key, deadline);
  struct epoll_event evs[64];
  for (;;) {
    unsigned outstanding = 0;
    for (unsigned i = 0; i < n; ++i)
      outstanding += conns[i].count;
    if (outstanding == 0)
      break;
    int k = epoll_wait(ep, evs, 64, 10000);
    if (k == 0) {
      fprintf(stderr, "ptm-mc-load: no answer for 10 s (%u outstanding)\n",
              outstanding);
      exit(2);
    }
    for (int j = 0; j < k; ++j) {
      conn_t *c = &conns[evs[j].data.u32];
      if (!drain(c, scratch, !preload)) {
        fprintf(stderr, "ptm-mc-load: the server closed a connection\n");
        exit(2);
      }
      fill(c, out, preload, &next_key, deadline);
    }
  }
  close(ep);
}

int main(int argc, char **argv) {
  parse_args(argc, argv);
  rng_state = opt.seed * 0x9E3779B97F4A7C15ull | 1;
  hist = calloc(NBUCKETS, sizeof *hist);
  conn_t *conns = calloc(opt.conns, sizeof *conns);
  unsigned depth = opt.depth > PRELOAD_DEPTH ? opt.depth : PRELOAD_DEPTH;
  size_t out_cap = (size_t)depth * (opt.value_size + 64);
  char *out = malloc(out_cap), *scratch = malloc(MAX_VALUE);
  if (!hist || !conns || !out || !scratch) {
    fprintf(stderr, "ptm-mc-load: out of memory\n");
    return 2;
  }
  for (unsigned i = 0; i < opt.conns; ++i) {
    conns[i].fd = connect_to(opt.server);
    conns[i].in = malloc(IN_CAP);
    if (!conns[i].in) {
      fprintf(stderr, "ptm-mc-load: out of memory\n");
      return 2;
    }
  }
  if (opt.preload) {
    run(conns, 1, true, out, scratch);
    uint64_t errors = count.errors; /* (the counts are the run's) */
    memset(&count, 0, sizeof count);
    count.errors = errors;
  }
  uint64_t t0 = now_ns();
  run(conns, opt.conns, false, out, scratch);
  double secs = (double)(now_ns() - t0) / 1e9;
  uint64_t n = count.answered;
  printf("RESULT client=ptm-mc-load ops=%llu secs=%.3f ops_per_s=%.0f "
         "gets=%llu hits=%llu misses=%llu sets=%llu errors=%llu "
         "p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f\n",
         (unsigned long long)n, secs, (double)n / secs,
         (unsigned long long)count.gets, (unsigned long long)count.hits,
         (unsigned long long)count.misses, (unsigned long long)count.sets,
         (unsigned long long)count.errors, percentile(0.5, n),
         percentile(0.9, n), percentile(0.99, n), percentile(0.999, n),
         (double)max_ns / 1000.0);
  for (unsigned i = 0; i < opt.conns; ++i) {
    close(conns[i].fd);
    free(conns[i].in);
  }
  free(conns);
  free(out);
  free(scratch);
  free(hist);
  return count.errors ? 1 : 0;
}
