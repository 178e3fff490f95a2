/* libc in transactions: strlen/strcpy/strcmp/memcpy/memset/strdup (and a few
 * more) on shared buffers give the results they give outside, and their
 * writes are rolled back under injected aborts (a repeated append would show
 * extra characters otherwise). */
#include "e2e.h"

#include <string.h>

static char text[256];
static char copy[256];
static char log_buf[1024];
static char *dup;
static const char *volatile words[] = {"alpha", "beta", "gamma", "delta",
                                       "epsilon"};
static unsigned char block[300];

int main(void) {
  strcpy(text, "the quick brown fox jumps over the lazy dog");
  E2E_RESET();

  /* Read-only functions: same results as outside. */
  size_t len, x_len = strlen(text);
  int cmp1, cmp2, ncmp, x_cmp1 = strcmp(text, "the quick"),
                        x_cmp2 = strcmp("the quick", text),
                        x_ncmp = strncmp(text, "the quiet", 7);
  const char *chr, *rchr, *str;
  size_t spn, cspn;
  PTM_BEGIN();
  len = strlen(text);
  cmp1 = strcmp(text, "the quick");
  cmp2 = strcmp("the quick", text);
  ncmp = strncmp(text, "the quiet", 7);
  chr = strchr(text, 'q');
  rchr = strrchr(text, 'o');
  str = strstr(text, "fox");
  spn = strspn(text, "the ");
  cspn = strcspn(text, "xyz");
  PTM_END();
  CHECK_EQ(len, x_len);
  CHECK((cmp1 > 0) == (x_cmp1 > 0) && (cmp1 < 0) == (x_cmp1 < 0),
        "strcmp %d vs %d", cmp1, x_cmp1);
  CHECK((cmp2 > 0) == (x_cmp2 > 0) && (cmp2 < 0) == (x_cmp2 < 0),
        "strcmp %d vs %d", cmp2, x_cmp2);
  CHECK_EQ(ncmp, x_ncmp);
  CHECK(chr == strchr(text, 'q'), "strchr");
  CHECK(rchr == strrchr(text, 'o'), "strrchr");
  CHECK(str == strstr(text, "fox"), "strstr");
  CHECK_EQ(spn, strspn(text, "the "));
  CHECK_EQ(cspn, strcspn(text, "xyz"));
  E2E_CHECK_PHASE("read-only", 1);

  /* Writing functions: copy, append, fill, duplicate. */
  char x_log[1024] = "";
  for (int i = 0; i < 20; i++) {
    const char *w = words[i % 5];
    strcat(x_log, w);
    strcat(x_log, ",");
    PTM_BEGIN();
    strcpy(copy, text);
    memcpy(copy + 4, "QUICK", 5);
    memset(copy + 10, '#', 5);
    /* An append that re-executes without rollback would repeat. */
    strcat(log_buf, w);
    size_t l = strlen(log_buf);
    log_buf[l] = ',';
    log_buf[l + 1] = 0;
    memset(block, i, sizeof block);
    memcpy(block + 100, block, 50);
    free(dup);
    dup = strdup(text);
    PTM_END();
  }
  char x_copy[256];
  strcpy(x_copy, text);
  memcpy(x_copy + 4, "QUICK", 5);
  memset(x_copy + 10, '#', 5);
  CHECK(strcmp(copy, x_copy) == 0, "copy '%s' != '%s'", copy, x_copy);
  CHECK(strcmp(log_buf, x_log) == 0, "log '%s' != '%s'", log_buf, x_log);
  for (size_t k = 0; k < sizeof block; k++)
    if (block[k] != 19) {
      CHECK(block[k] == 19, "block[%zu] = %d", k, block[k]);
      break;
    }
  CHECK(dup && dup != text && strcmp(dup, text) == 0, "strdup");
#ifdef PTM_E2E_TESTRT
  {
    const struct ptm_test_counts *c = ptm_test_counts();
    CHECK(c->libc[PTM_TEST_STRCPY] >= 20, "strcpy not transactional");
    CHECK(c->libc[PTM_TEST_STRDUP] >= 20, "strdup not transactional");
    CHECK_EQ(c->live_tx_allocs, 1); /* the last dup */
  }
#endif
  E2E_CHECK_PHASE("writes", 20);

  return e2e_finish("libc");
}
