/* A fixed SQLite workload with every statement inside a transaction (issue
 * 49): sqlite3_open, prepare, step, finalize and close each run between
 * PTM_BEGIN and PTM_END, on an in-memory database. Every query result is
 * collected inside the transaction and printed after it (printf inside one
 * is irrevocable), so the output of a build with the plugin must equal,
 * byte for byte, that of the native build (-DSQLITE_NATIVE: no plugin, no
 * ptm library, empty markers).
 *
 *   sqlite_workload [-n INSERTS] [-q]
 *     -n  rows inserted into the main table (default 20000)
 *     -q  print only each query's row count and checksum
 */
#include "sqlite3.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SQLITE_NATIVE
#define TX_BEGIN()
#define TX_END()
#else
#include <ptm.h>
#define TX_BEGIN() PTM_BEGIN()
#define TX_END() PTM_END()
#endif

static sqlite3 *db;
static int quiet;

/* The text of one query's result, built inside the transaction. */
static char out[1 << 20];
static size_t out_len;
static uint64_t checksum = 1469598103934665603ULL;
static int failed;
static char error[512];

static void fold(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    checksum ^= (unsigned char)s[i];
    checksum *= 1099511628211ULL;
  }
}

static void append(const char *s) {
  size_t n = strlen(s);
  if (out_len + n + 1 < sizeof out) {
    memcpy(out + out_len, s, n);
    out_len += n;
    out[out_len] = '\0';
  }
}

static void note_error(const char *what) {
  if (!failed)
    snprintf(error, sizeof error, "%s: %s", what, sqlite3_errmsg(db));
  failed = 1;
}

/* Runs SQL (one statement) and, for a query, appends one line per row:
 * columns separated by '|'. Returns the number of rows. */
static long run(const char *sql) {
  sqlite3_stmt *st = NULL;
  long rows = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    note_error(sql);
    return -1;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int nc = sqlite3_column_count(st);
    char line[512];
    size_t len = 0;
    line[0] = '\0';
    for (int c = 0; c < nc && len < sizeof line - 1; c++) {
      const unsigned char *v = sqlite3_column_text(st, c);
      int w = snprintf(line + len, sizeof line - len, "%s%s", c ? "|" : "",
                       v ? (const char *)v : "NULL");
      if (w < 0)
        break;
      len += (size_t)w < sizeof line - len ? (size_t)w : sizeof line - len - 1;
    }
    fold(line, len);
    append(line);
    append("\n");
    rows++;
  }
  if (rc != SQLITE_DONE)
    note_error(sql);
  sqlite3_finalize(st);
  return rows;
}

/* One query in its own transaction; its rows printed after it. */
static void query(const char *sql) {
  long rows;
  out_len = 0;
  out[0] = '\0';
  TX_BEGIN();
  out_len = 0;
  out[0] = '\0';
  rows = run(sql);
  TX_END();
  printf("-- %s\n", sql);
  if (!quiet)
    fputs(out, stdout);
  printf("-- rows %ld, checksum %016llx\n", rows, (unsigned long long)checksum);
}

static uint64_t lcg_state = 12345;
static uint64_t lcg(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lcg_state >> 17;
}

static const char *const words[] = {"alpha", "bravo",   "charlie", "delta",
                                    "echo",  "foxtrot", "golf",    "hotel",
                                    "india", "juliet",  "kilo",    "lima"};

/* Inserts rows [from, to) of the main table in one transaction, with
 * values drawn before it (the generator is not transactional state). */
static void insert_batch(long from, long to) {
  enum { MAXB = 512 };
  static long cat[MAXB], qty[MAXB];
  static double price[MAXB];
  static const char *w1[MAXB], *w2[MAXB];
  long n = to - from;
  for (long i = 0; i < n; i++) {
    cat[i] = (long)(lcg() % 37);
    qty[i] = (long)(lcg() % 1000) - 200;
    price[i] = (double)(lcg() % 100000) / 100.0;
    w1[i] = words[lcg() % 12];
    w2[i] = words[lcg() % 12];
  }
  TX_BEGIN();
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db,
                         "INSERT INTO item(id, cat, qty, price, name) "
                         "VALUES (?1, ?2, ?3, ?4, ?5 || '-' || ?6 || ?1)",
                         -1, &st, NULL) != SQLITE_OK) {
    note_error("prepare insert");
  } else {
    for (long i = 0; i < n && !failed; i++) {
      sqlite3_bind_int64(st, 1, from + i);
      sqlite3_bind_int64(st, 2, cat[i]);
      sqlite3_bind_int64(st, 3, qty[i]);
      sqlite3_bind_double(st, 4, price[i]);
      sqlite3_bind_text(st, 5, w1[i], -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 6, w2[i], -1, SQLITE_STATIC);
      if (sqlite3_step(st) != SQLITE_DONE)
        note_error("insert");
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
  }
  TX_END();
}

/* A statement without rows in its own transaction. */
static void exec(const char *sql) {
  TX_BEGIN();
  out_len = 0;
  if (run(sql) < 0)
    note_error(sql);
  TX_END();
}

int main(int argc, char **argv) {
  long inserts = 20000;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      inserts = atol(argv[++i]);
    else if (strcmp(argv[i], "-q") == 0)
      quiet = 1;
    else {
      fprintf(stderr, "usage: %s [-n INSERTS] [-q]\n", argv[0]);
      return 2;
    }
  }
  if (inserts < 1) {
    fprintf(stderr, "sqlite_workload: -n needs a positive count\n");
    return 2;
  }
  int rc;
  TX_BEGIN();
  rc = sqlite3_open(":memory:", &db);
  TX_END();
  if (rc != SQLITE_OK) {
    fprintf(stderr, "sqlite_workload: cannot open: %d\n", rc);
    return 1;
  }
  exec("CREATE TABLE item(id INTEGER PRIMARY KEY, cat INTEGER, qty INTEGER, "
       "price REAL, name TEXT)");
  exec("CREATE INDEX item_cat ON item(cat, price)");
  exec("CREATE TABLE category(cat INTEGER PRIMARY KEY, label TEXT)");
  for (long from = 0; from < inserts && !failed; from += 200)
    insert_batch(from, from + 200 < inserts ? from + 200 : inserts);
  exec("WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c "
       "WHERE x < 36) INSERT INTO category SELECT x, printf('cat-%02d', x) "
       "FROM c");
  exec("UPDATE item SET qty = qty + 7 WHERE cat % 5 = 1");
  exec("UPDATE item SET name = upper(name) WHERE id % 97 = 0");
  exec("DELETE FROM item WHERE qty < -150");
  exec("DELETE FROM category WHERE cat = 13");

  query("SELECT count(*), sum(qty), min(price), max(price), "
        "printf('%.4f', avg(price)) FROM item");
  query("SELECT cat, count(*), sum(qty), printf('%.2f', total(price)) "
        "FROM item GROUP BY cat ORDER BY cat");
  query("SELECT id, cat, qty, price, name FROM item ORDER BY price DESC, id "
        "LIMIT 25");
  query("SELECT c.label, count(*), max(i.qty) FROM item i JOIN category c "
        "ON i.cat = c.cat WHERE i.price > 500 GROUP BY c.label "
        "ORDER BY 2 DESC, 1 LIMIT 12");
  query("SELECT count(*), sum(id) FROM item WHERE name LIKE 'ECHO%' OR name "
        "LIKE '%golf%'");
  query("SELECT id, name FROM item WHERE qty > (SELECT avg(qty) + 350 FROM "
        "item) ORDER BY id LIMIT 20");
  query("SELECT cat, id, price FROM item WHERE cat BETWEEN 3 AND 5 AND "
        "price < 20 ORDER BY cat, price, id");
  query("SELECT substr(name, 1, 5) AS w, count(*) FROM item GROUP BY w "
        "ORDER BY w");
  query("SELECT count(*) FROM item LEFT JOIN category USING (cat) WHERE "
        "label IS NULL");

  TX_BEGIN();
  rc = sqlite3_close(db);
  TX_END();
  if (failed) {
    fprintf(stderr, "sqlite_workload: %s\n", error);
    return 1;
  }
  if (rc != SQLITE_OK) {
    fprintf(stderr, "sqlite_workload: close failed: %d\n", rc);
    return 1;
  }
  printf("checksum %016llx\n", (unsigned long long)checksum);
  return 0;
}
