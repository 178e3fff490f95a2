/* More libc in transactions (issue 17, part 4): rand_r, strto* and ato*,
 * strtok_r, memrchr, qsort/qsort_r/bsearch with comparators defined here,
 * snprintf & co. (also the _FORTIFY_SOURCE forms) with %s arguments in
 * shared memory, math with pointer results, and the pure additions (div,
 * ctype, lrint, fdim), and the comparisons at every alignment. Every call runs
 * inside a transaction on shared data, mostly on strings the same transaction
 * wrote just before (a redo library holds them in its write log, not in
 * memory), and every result is checked against libc outside any transaction.
 * Under the test runtime's abort sweeps each transaction is re-executed and
 * must give the same results; a last phase runs threads whose transactions
 * conflict (a counter kept as text: strtol, then snprintf).
 *
 * Usage: e2e_libc_more [threads [transactions per thread]] */
#define _GNU_SOURCE
#include "e2e.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* glibc's _FORTIFY_SOURCE entry points, called directly. */
int __snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
                   ...);
int __vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
                    va_list ap);
int __sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...);

static unsigned seed = 12345;
static int rolls[30];
static char num[128];
static char text[256];
static char out[256];
static char out2[64];
static char tokens[256];
static long lvals[8];
static unsigned long long uvals[4];
static double dvals[4];
static float fval;
static long offs[12];
static int ivals[8];
static double mvals[8];
static int mints[4];
static char *memr;

#define N_ARR 50
static int arr[N_ARR];
struct rec {
  int key;
  char name[16];
};
static struct rec recs[20];
static struct rec *found[4];
static int *ifound[3];

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int cmp_rec_name(const void *a, const void *b) {
  return strcmp(((const struct rec *)a)->name, ((const struct rec *)b)->name);
}
static int cmp_int_dir(const void *a, const void *b, void *dir) {
  return *(const int *)dir * cmp_int(a, b);
}

/* A variadic helper: vsnprintf and __vsnprintf_chk with its va_list. */
static int fmt_v(char *dst, size_t n, int chk, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r =
      chk ? __vsnprintf_chk(dst, n, 1, n, fmt, ap) : vsnprintf(dst, n, fmt, ap);
  va_end(ap);
  return r;
}

static const char *const kNumbers[] = {"  -12345xyz",
                                       "0x1fZ",
                                       "077 rest",
                                       "+99999999999999",
                                       "18446744073709551615!",
                                       "3.25e2abc",
                                       "-1.5q",
                                       "  42",
                                       "nothing",
                                       "1e400"};

/* 2 threads: a counter kept as decimal text, incremented by strtol then
 * snprintf in conflicting transactions, with a shared rand_r seed. */
static char counter[32] = "0";
static unsigned shared_seed = 1;
static int shared_rolls;
static int per_thread = 2000;

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < per_thread; i++) {
    PTM_BEGIN();
    char *end;
    long v = strtol(counter, &end, 10);
    if (*end == '\0')
      snprintf(counter, sizeof counter, "%ld", v + 1);
    rand_r(&shared_seed);
    shared_rolls++;
    PTM_END();
  }
  return 0;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  if (argc > 2)
    per_thread = atoi(argv[2]);
  E2E_RESET();

  /* 1. rand_r on a shared seed and on a local one. */
  unsigned x_seed = seed;
  int x_rolls[30];
  for (int i = 0; i < 30; i++)
    x_rolls[i] = rand_r(&x_seed);
  unsigned local = 77, x_local = 77;
  int lroll = 0, x_lroll = rand_r(&x_local);
  for (int t = 0; t < 10; t++) {
    PTM_BEGIN();
    for (int k = 0; k < 3; k++)
      rolls[3 * t + k] = rand_r(&seed);
    if (t == 0)
      lroll = rand_r(&local);
    PTM_END();
  }
  for (int i = 0; i < 30; i++)
    CHECK(rolls[i] == x_rolls[i], "rand_r roll %d: %d != %d", i, rolls[i],
          x_rolls[i]);
  CHECK_EQ(seed, x_seed);
  CHECK_EQ(lroll, x_lroll);
  CHECK_EQ(local, x_local);
  E2E_CHECK_PHASE("rand_r", 10);

  /* 2. strto* / ato* on strings written by the same transaction; endptr
   * maps into the shared string. */
  for (int i = 0; i < 10; i++) {
    const char *s = kNumbers[i];
    char *x_end;
    long x_l = strtol(s, &x_end, 0);
    long x_loff = x_end - s;
    unsigned long x_ul = strtoul(s, &x_end, 16);
    long x_uloff = x_end - s;
    long long x_ll = strtoll(s, &x_end, 10);
    long x_lloff = x_end - s;
    unsigned long long x_ull = strtoull(s, &x_end, 0);
    long x_ulloff = x_end - s;
    double x_d = strtod(s, &x_end);
    long x_doff = x_end - s;
    float x_f = strtof(s, &x_end);
    long x_foff = x_end - s;
    int x_i = atoi(s);
    long x_al = atol(s);
    long long x_all = atoll(s);
    double x_af = atof(s);
    PTM_BEGIN();
    strcpy(num, "garbage that is not a number");
    strcpy(num, s); /* the text the conversions must see */
    char *end;
    lvals[0] = strtol(num, &end, 0);
    offs[0] = end - num;
    uvals[0] = strtoul(num, &end, 16);
    offs[1] = end - num;
    lvals[1] = strtoll(num, &end, 10);
    offs[2] = end - num;
    uvals[1] = strtoull(num, &end, 0);
    offs[3] = end - num;
    dvals[0] = strtod(num, &end);
    offs[4] = end - num;
    fval = strtof(num, &end);
    offs[5] = end - num;
    ivals[0] = atoi(num);
    lvals[2] = atol(num);
    lvals[3] = atoll(num);
    dvals[1] = atof(num);
    strtol(num, NULL, 10); /* no endptr */
    PTM_END();
    CHECK(lvals[0] == x_l && offs[0] == x_loff, "strtol(\"%s\"): %ld+%ld", s,
          lvals[0], offs[0]);
    CHECK(uvals[0] == x_ul && offs[1] == x_uloff, "strtoul(\"%s\")", s);
    CHECK(lvals[1] == x_ll && offs[2] == x_lloff, "strtoll(\"%s\")", s);
    CHECK(uvals[1] == x_ull && offs[3] == x_ulloff, "strtoull(\"%s\")", s);
    CHECK(dvals[0] == x_d && offs[4] == x_doff, "strtod(\"%s\"): %g+%ld", s,
          dvals[0], offs[4]);
    CHECK(fval == x_f && offs[5] == x_foff, "strtof(\"%s\")", s);
    CHECK(ivals[0] == x_i && lvals[2] == x_al && lvals[3] == x_all &&
              dvals[1] == x_af,
          "ato*(\"%s\")", s);
  }
  E2E_CHECK_PHASE("strto", 10);

  /* 3. strtok_r cuts a string written in the same transaction, a shared
   * and a local save pointer; memrchr. */
  static const char *const kLines[] = {",alpha,,beta;gamma ;;delta,", "one",
                                       ";;", "a;b,c;;d", ""};
  static char *save_shared;
  for (int t = 0; t < 5; t++) {
    const char *line = kLines[t];
    char x_buf[64], x_tokens[256] = "";
    strcpy(x_buf, line);
    char *x_save;
    for (char *tok = strtok_r(x_buf, ",;", &x_save); tok;
         tok = strtok_r(NULL, ",;", &x_save)) {
      strcat(x_tokens, tok);
      strcat(x_tokens, "|");
    }
    long x_saveoff = x_save - x_buf;
    long saveoff = -1;
    PTM_BEGIN();
    strcpy(text, line);
    tokens[0] = '\0';
    char *save;
    for (char *tok = strtok_r(text, ",;", &save); tok;
         tok = strtok_r(NULL, ",;", &save)) {
      strcat(tokens, tok);
      strcat(tokens, "|");
    }
    saveoff = save - text;
    strcpy(text + 100, t % 2 ? "x y" : "y x");
    strtok_r(text + 100, " ", &save_shared);
    memr = memrchr(text + 100, 'y', 3);
    PTM_END();
    CHECK(strcmp(tokens, x_tokens) == 0, "strtok_r tokens '%s' != '%s'", tokens,
          x_tokens);
    CHECK(memcmp(text, x_buf, strlen(line) + 1) == 0, "strtok_r's NULs");
    CHECK_EQ(saveoff, x_saveoff);
    CHECK(save_shared == text + 102, "shared save pointer");
    CHECK(memr == text + (t % 2 ? 102 : 100), "memrchr in the transaction");
  }
  const char *ml = kLines[0];
  CHECK(memrchr(ml, 'a', strlen(ml)) == ml + strlen(ml) - 2, "memrchr outside");
  E2E_CHECK_PHASE("strtok_r", 5);

  /* 4. qsort / qsort_r / bsearch on arrays the transaction fills. */
  int x_arr[N_ARR];
  unsigned fill = 99;
  for (int i = 0; i < N_ARR; i++)
    x_arr[i] = (int)(rand_r(&fill) % 100000) * N_ARR + i; /* distinct */
  int x_sorted[N_ARR];
  memcpy(x_sorted, x_arr, sizeof x_arr);
  qsort(x_sorted, N_ARR, sizeof(int), cmp_int);
  struct rec x_recs[20];
  for (int i = 0; i < 20; i++) {
    x_recs[i].key = i;
    snprintf(x_recs[i].name, sizeof x_recs[i].name, "n%02d-%c", (i * 7) % 20,
             'a' + i);
  }
  qsort(x_recs, 20, sizeof x_recs[0], cmp_rec_name);
  int key_hit = x_sorted[17], key_miss = x_sorted[17] + 1;
  /* Each transaction sorts other values than the last one committed: a
   * qsort that read the array plainly would sort stale data. */
  for (int t = 0; t < 5; t++) {
    int bias = t * 7919;
    int hit = key_hit + bias, miss = key_miss + bias;
    PTM_BEGIN();
    for (int i = 0; i < N_ARR; i++)
      arr[i] = x_arr[i] + bias;
    qsort(arr, N_ARR, sizeof(int), cmp_int);
    ifound[0] = bsearch(&hit, arr, N_ARR, sizeof(int), cmp_int);
    ifound[1] = bsearch(&miss, arr, N_ARR, sizeof(int), cmp_int);
    for (int i = 0; i < 20; i++) {
      recs[i].key = i;
      snprintf(recs[i].name, sizeof recs[i].name, "n%02d-%c", (i * 7) % 20,
               'a' + i);
    }
    qsort(recs, 20, sizeof recs[0], cmp_rec_name);
    struct rec probe;
    strcpy(probe.name, "n10-k");
    found[0] = bsearch(&probe, recs, 20, sizeof recs[0], cmp_rec_name);
    strcpy(probe.name, "n13-j");
    found[1] = bsearch(&probe, recs, 20, sizeof recs[0], cmp_rec_name);
    PTM_END();
    for (int i = 0; i < N_ARR; i++)
      CHECK(arr[i] == x_sorted[i] + bias, "qsort of ints, %d: at %d", t, i);
    CHECK(ifound[0] == &arr[17], "bsearch hit");
    CHECK(ifound[1] == NULL, "bsearch miss");
    for (int i = 0; i < 20; i++)
      CHECK(recs[i].key == x_recs[i].key &&
                strcmp(recs[i].name, x_recs[i].name) == 0,
            "qsort of records at %d: %d %s != %d %s", i, recs[i].key,
            recs[i].name, x_recs[i].key, x_recs[i].name);
    CHECK(found[0] && found[0]->key == 10, "bsearch record");
    CHECK(found[1] == NULL, "bsearch record miss");
  }
  for (int i = 0; i < N_ARR; i++)
    x_sorted[i] += 4 * 7919;
  int desc = -1;
  PTM_BEGIN();
  qsort_r(arr, N_ARR, sizeof(int), cmp_int_dir, &desc);
  PTM_END();
  for (int i = 0; i < N_ARR; i++)
    CHECK(arr[i] == x_sorted[N_ARR - 1 - i], "qsort_r at %d", i);
  E2E_CHECK_PHASE("qsort", 6);

  /* 5. snprintf & co.: %s arguments (and the format) in shared memory that
   * the same transaction wrote. */
  static char fmt_shared[64];
  static char name[32];
  static char other[32];
  static const char *const kNames[] = {"world", "Mars", "", "a longer name",
                                       "x"};
  static const char *const kOthers[] = {"ab", "cdefghijkl", "z", "", "yy"};
  const char *fmt =
      "[%s|%-8s|%.3s|%*d|%-*.*f|%5.2s|%c|%#x|%lld|%zu|%%|%e|%+05hd|%s]";
  /* Each transaction formats other strings than the last one committed:
   * reading a %s argument plainly would see the old text. */
  for (int t = 0; t < 5; t++) {
    const char *nm = kNames[t], *ot = kOthers[t];
    char x_out[256];
    int x_len = snprintf(x_out, sizeof x_out, fmt, nm, ot, nm, 6, 42, 9, 2,
                         3.14159, nm, 'Q', 255u, -1234567890123ll, (size_t)77,
                         6.02e23, (short)-42, (char *)NULL);
    char x_trunc[10];
    int x_tlen = snprintf(x_trunc, sizeof x_trunc, "%s-%s", nm, ot);
    char x_sp[64];
    int x_splen = sprintf(x_sp, "<%s:%d>", nm, 5);
    char x_v[64];
    int x_vlen = snprintf(x_v, sizeof x_v, "v%sv%dv", ot, 12);
    int len = 0, tlen = 0, splen = 0, vlen = 0, vclen = 0, chklen = 0,
        schklen = 0, flen = 0;
    PTM_BEGIN();
    strcpy(name, "stale");
    strcpy(other, "zz");
    strcpy(name, nm); /* buffered by a redo library */
    strcpy(other, ot);
    len = snprintf(out, sizeof out, fmt, name, other, name, 6, 42, 9, 2,
                   3.14159, name, 'Q', 255u, -1234567890123ll, (size_t)77,
                   6.02e23, (short)-42, (char *)NULL);
    tlen = snprintf(out2, 10, "%s-%s", name, other);
    splen = sprintf(out2 + 20, "<%s:%d>", name, 5);
    vlen = fmt_v(out2 + 40, 20, 0, "v%sv%dv", other, 12);
    strcpy(fmt_shared, t % 2 ? "v%sv%dv" : "v%sv%iv");
    flen = snprintf(text, sizeof text, fmt_shared, other, 12);
    vclen = fmt_v(text + 64, 20, 1, "v%sv%dv", other, 12);
    chklen = __snprintf_chk(text + 96, 10, 1, 10, "%s-%s", name, other);
    schklen = __sprintf_chk(text + 128, 1, 64, "<%s:%d>", name, 5);
    PTM_END();
    CHECK(len == x_len && strcmp(out, x_out) == 0, "snprintf '%s' (%d) != '%s'",
          out, len, x_out);
    CHECK(tlen == x_tlen && strcmp(out2, x_trunc) == 0,
          "truncated snprintf '%s' (%d) != '%s'", out2, tlen, x_trunc);
    CHECK(splen == x_splen && strcmp(out2 + 20, x_sp) == 0, "sprintf '%s'",
          out2 + 20);
    CHECK(vlen == x_vlen && strcmp(out2 + 40, x_v) == 0, "vsnprintf '%s'",
          out2 + 40);
    CHECK(flen == x_vlen && strcmp(text, x_v) == 0, "shared format '%s'", text);
    CHECK(vclen == x_vlen && strcmp(text + 64, x_v) == 0,
          "__vsnprintf_chk '%s'", text + 64);
    CHECK(chklen == x_tlen && strcmp(text + 96, x_trunc) == 0,
          "__snprintf_chk '%s'", text + 96);
    CHECK(schklen == x_splen && strcmp(text + 128, x_sp) == 0,
          "__sprintf_chk '%s'", text + 128);
  }
  E2E_CHECK_PHASE("snprintf", 5);

  /* 5b. Every conversion with flags, widths and precisions (literal and
   * `*`) and length modifiers, in shared memory, against libc. */
  {
    static const char *const kConvs[] = {
        "d", "i", "u", "x",  "X",   "o",  "c",   "e",  "E",  "f",  "g",  "G",
        "a", "s", "p", "hd", "hhx", "ld", "lld", "jd", "zu", "tx", "Lf", "lx"};
    static const char *const kFlags[] = {"", "-", "+", " ", "#", "0", "-+"};
    static const char *const kWidths[] = {"", "7", "*"};
    static const char *const kPrecs[] = {"", ".3", ".*", ".0"};
    static char fmt_tm[32];
    static char str_tm[16];
    int mismatches = 0, checked = 0;
    for (unsigned ci = 0; ci < sizeof kConvs / sizeof *kConvs; ci++) {
      const char *conv = kConvs[ci];
      char last = conv[strlen(conv) - 1];
      for (unsigned fi = 0; fi < 7; fi++)
        for (unsigned wi = 0; wi < 3; wi++)
          for (unsigned pi = 0; pi < 4; pi++) {
            char f[32];
            strcpy(f, "<%");
            strcat(f, kFlags[fi]);
            strcat(f, kWidths[wi]);
            strcat(f, kPrecs[pi]);
            strcat(f, conv);
            strcat(f, ">");
            int w = 9 - (int)fi, p = (int)ci % 5;
            int star_w = wi == 2, star_p = pi == 2;
            char x[128], got[128] = "";
            int xn, n = 0;
        /* the same call outside and inside, on the same argument */
#define FMT_ONE(dst, fmtp, arg)                                                \
  (star_w && star_p ? snprintf(dst, 128, fmtp, w, p, arg)                      \
   : star_w         ? snprintf(dst, 128, fmtp, w, arg)                         \
   : star_p         ? snprintf(dst, 128, fmtp, p, arg)                         \
                    : snprintf(dst, 128, fmtp, arg))
#define FMT_BOTH(arg)                                                          \
  do {                                                                         \
    xn = FMT_ONE(x, f, arg);                                                   \
    PTM_BEGIN();                                                               \
    strcpy(fmt_tm, f);                                                         \
    strcpy(str_tm, "tx-str");                                                  \
    n = FMT_ONE(out, fmt_tm, arg);                                             \
    strcpy(got, out);                                                          \
    PTM_END();                                                                 \
  } while (0)
            switch (last) {
            case 'c':
              FMT_BOTH('k');
              break;
            case 'e':
            case 'E':
            case 'f':
            case 'g':
            case 'G':
            case 'a':
              if (conv[0] == 'L')
                FMT_BOTH(-1234.5678L);
              else
                FMT_BOTH(-1234.5678);
              break;
            case 's':
              /* outside: the literal; inside: the same text written by
               * the transaction */
              xn = FMT_ONE(x, f, "tx-str");
              PTM_BEGIN();
              strcpy(fmt_tm, f);
              strcpy(str_tm, "tx-str");
              n = FMT_ONE(out, fmt_tm, str_tm);
              strcpy(got, out);
              PTM_END();
              break;
            case 'p':
              FMT_BOTH((void *)&seed);
              break;
            default:
              if (!strcmp(conv, "lld"))
                FMT_BOTH(-1234567890123LL);
              else if (conv[0] == 'l' || conv[0] == 'j' || conv[0] == 'z' ||
                       conv[0] == 't')
                FMT_BOTH(-123456789012L);
              else
                FMT_BOTH(-4660);
              break;
            }
#undef FMT_BOTH
#undef FMT_ONE
            checked++;
            if (n != xn || strcmp(got, x) != 0) {
              if (mismatches++ < 5)
                CHECK(0, "format \"%s\": '%s' (%d) != '%s' (%d)", f, got, n, x,
                      xn);
            }
          }
    }
    CHECK_EQ(mismatches, 0);
    CHECK_EQ(checked, 24 * 7 * 3 * 4);
    E2E_CHECK_PHASE("formats", 24 * 7 * 3 * 4);
  }

  /* 6. Math with pointer results; pure functions. */
  static volatile double in1 = -7.75, in2 = 1e-3, in3 = 10.5, in4 = 3.0;
  double x_ip, x_fr = modf(in1, &x_ip);
  int x_e;
  double x_m = frexp(in2, &x_e);
  int x_q;
  double x_rq = remquo(in3, in4, &x_q);
  double x_s, x_c;
  sincos(in4, &x_s, &x_c);
  float x_fip, x_ffr = modff((float)in1, &x_fip);
  div_t x_div = div(-17, 5);
  ldiv_t x_ldiv = ldiv(1000000007L, 13L);
  lldiv_t x_lldiv = lldiv(-99999999999LL, 7LL);
  long x_lrint = lrint(in3), x_llrint = (long)llrint(-in3);
  double x_fdim = fdim(in3, in4);
  int x_ct = 0;
  for (int c = 0; c < 128; c++)
    x_ct += isblank(c) + 2 * !!iscntrl(c) + 4 * !!isgraph(c);
  int ct = 0;
  div_t dv;
  ldiv_t ldv;
  lldiv_t lldv;
  for (int t = 0; t < 3; t++) {
    PTM_BEGIN();
    mvals[0] = modf(in1, &mvals[1]);
    mvals[2] = frexp(in2, &mints[0]);
    mvals[3] = remquo(in3, in4, &mints[1]);
    sincos(in4, &mvals[4], &mvals[5]);
    float fip;
    mvals[6] = modff((float)in1, &fip);
    mvals[7] = fip;
    dv = div(-17, 5);
    ldv = ldiv(1000000007L, 13L);
    lldv = lldiv(-99999999999LL, 7LL);
    lvals[4] = lrint(in3);
    lvals[5] = (long)llrint(-in3);
    dvals[2] = fdim(in3, in4);
    ct = 0;
    for (int c = 0; c < 128; c++)
      ct += isblank(c) + 2 * !!iscntrl(c) + 4 * !!isgraph(c);
    PTM_END();
  }
  CHECK(mvals[0] == x_fr && mvals[1] == x_ip, "modf");
  CHECK(mvals[2] == x_m && mints[0] == x_e, "frexp");
  CHECK(mvals[3] == x_rq && mints[1] == x_q, "remquo");
  CHECK(mvals[4] == x_s && mvals[5] == x_c, "sincos");
  CHECK(mvals[6] == x_ffr && mvals[7] == x_fip, "modff");
  CHECK(dv.quot == x_div.quot && dv.rem == x_div.rem, "div");
  CHECK(ldv.quot == x_ldiv.quot && ldv.rem == x_ldiv.rem, "ldiv");
  CHECK(lldv.quot == x_lldiv.quot && lldv.rem == x_lldiv.rem, "lldiv");
  CHECK(lvals[4] == x_lrint && lvals[5] == x_llrint, "lrint/llrint");
  CHECK(dvals[2] == x_fdim, "fdim");
  CHECK_EQ(ct, x_ct);
  E2E_CHECK_PHASE("math", 3);

  /* 6b. strcmp, strncmp and memcmp with every alignment of both operands
   * (the runtime reads them a word at a time), on strings this transaction
   * wrote (a redo library has them in its log) or an earlier one did; the
   * bytes after each terminator differ. */
  {
    static _Alignas(8) char cmpa[48], cmpb[48];
    static const int lens[] = {0, 1, 7, 8, 9, 17};
    int ntx = 0, bad = 0;
    for (int oa = 0; oa < 8; oa++)
      for (int ob = 0; ob < 8; ob++)
        for (unsigned li = 0; li < sizeof lens / sizeof lens[0]; li++)
          for (int kind = 0; kind < 5; kind++) {
            int len = lens[li];
            if (len == 0 && kind >= 1 && kind <= 3)
              continue;
            char xa[48], xb[48];
            memset(xa, 'Z', sizeof xa);
            memset(xb, 'Y', sizeof xb);
            for (int i = 0; i < len; i++)
              xa[oa + i] = xb[ob + i] = (char)('a' + i * 7 % 26);
            xa[oa + len] = xb[ob + len] = '\0';
            if (kind == 1)
              xb[ob] = (char)(xb[ob] + 1);
            else if (kind == 2)
              xb[ob + len - 1] = (char)0xc3; /* compares as unsigned */
            else if (kind == 3)
              xb[ob + len / 2] = (char)(xb[ob + len / 2] - 1);
            else if (kind == 4) /* B longer */
              xb[ob + len] = 'q', xb[ob + len + 1] = '\0';
            size_t n = (oa + ob) % 3 == 0   ? (size_t)len
                       : (oa + ob) % 3 == 1 ? (size_t)len / 2
                                            : (size_t)len + 3;
            int x1 = strcmp(xa + oa, xb + ob),
                x2 = strncmp(xa + oa, xb + ob, n),
                x3 = memcmp(xa + oa, xb + ob, (size_t)len + 1);
            int in_tx = (oa + ob + kind) % 2, r1, r2, r3;
            if (!in_tx) {
              memcpy(cmpa, xa, sizeof xa);
              memcpy(cmpb, xb, sizeof xb);
            }
            PTM_BEGIN();
            if (in_tx) {
              memcpy(cmpa, xa, sizeof xa);
              memcpy(cmpb, xb, sizeof xb);
            }
            r1 = strcmp(cmpa + oa, cmpb + ob);
            r2 = strncmp(cmpa + oa, cmpb + ob, n);
            r3 = memcmp(cmpa + oa, cmpb + ob, (size_t)len + 1);
            PTM_END();
            ntx++;
            if ((r1 > 0) - (r1 < 0) != (x1 > 0) - (x1 < 0) ||
                (r2 > 0) - (r2 < 0) != (x2 > 0) - (x2 < 0) ||
                (r3 > 0) - (r3 < 0) != (x3 > 0) - (x3 < 0)) {
              if (bad++ < 5)
                CHECK(0,
                      "compare at %d/%d, length %d, case %d, n %zu: %d %d %d, "
                      "libc %d %d %d",
                      oa, ob, len, kind, n, r1, r2, r3, x1, x2, x3);
            }
          }
    CHECK_EQ(bad, 0);
    CHECK_EQ(ntx, 8 * 8 * (2 + 5 * 5));
    E2E_CHECK_PHASE("compare", 8 * 8 * (2 + 5 * 5));
  }

#ifdef PTM_E2E_TESTRT
  /* (the counters were reset by each phase; spot-check one more call) */
  PTM_BEGIN();
  ivals[1] = atoi(kNumbers[7]);
  PTM_END();
  CHECK(ptm_test_counts()->libc[PTM_TEST_STRTO] >= 1, "atoi not transactional");
  CHECK_EQ(ivals[1], 42);
  E2E_RESET();
#endif

  /* 7. Conflicting transactions in threads. */
  pthread_t tid[16];
  if (threads > 16)
    threads = 16;
  for (int t = 0; t < threads; t++)
    CHECK(pthread_create(&tid[t], 0, worker, 0) == 0, "pthread_create");
  for (int t = 0; t < threads; t++)
    pthread_join(tid[t], 0);
  unsigned x_shared = 1;
  for (int i = 0; i < threads * per_thread; i++)
    rand_r(&x_shared);
  CHECK_EQ(strtol(counter, NULL, 10), (long)threads * per_thread);
  CHECK_EQ(shared_rolls, threads * per_thread);
  CHECK_EQ(shared_seed, x_shared);

  return e2e_finish("libc_more");
}
