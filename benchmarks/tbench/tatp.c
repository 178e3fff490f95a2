/*
 * tatp: the TATP Update Location transaction (the paper, Section III-C,
 * after DudeTM), written from the TATP description: a subscriber table of
 * KEY_RANGE rows (-k, default 100,000) reached through a hash index on
 * sub_nbr; one operation = one transaction that looks a subscriber up by
 * sub_nbr (s_id drawn non-uniformly as TATP does: (rand(0, A) | rand(1, N))
 * mod N + 1, A = 65535 up to 1M subscribers, 1048575 above) and sets its
 * vlr_location to a random 32-bit value.
 *
 * Validation: every subscriber reachable through the index under its own
 * sub_nbr; the sum of all vlr_location equals the initial sum plus the
 * changes accumulated inside the transactions (a per-thread checksum), and
 * the per-row update counts sum to the updates counted in the transactions
 * and by the workers.
 *
 *   tatp [common options]        (-u is ignored: every transaction updates)
 */
#include "bench.h"
#include "hashtable.h"
#include "tx_slots.h"

#include <stdio.h>
#include <stdlib.h>

struct subscriber {
  uint64_t s_id;
  char sub_nbr[24]; /* TATP: 15 digits */
  uint64_t bits;    /* bit_1..bit_10 */
  uint64_t hex;     /* hex_1..hex_10 */
  uint8_t byte2[10];
  uint32_t msc_location;
  uint32_t vlr_location;
  uint64_t updates;
};

/* tx_slot words */
enum { SLOT_UPDATES, SLOT_DELTA };

struct root {
  hashtable_t index; /* sub_nbr -> row */
  tx_slot_t *slots;
};

static struct root *root;

static uint64_t sub_nbr_key(uint64_t s_id) { return s_id; }

static uint64_t random_s_id(bench_thread_t *t) {
  long n = bench.key_range;
  long a = n <= 1000000 ? 65535 : 1048575;
  return (
      uint64_t)((bench_rand_below(t, a + 1) | (1 + bench_rand_below(t, n))) %
                    n +
                1);
}

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  while (bench_continue(t)) {
    uint64_t key = sub_nbr_key(random_s_id(t));
    uint32_t vlr = (uint32_t)bench_rand(t);
    int found = 0;
    PTM_BEGIN();
    uint64_t v;
    found = hashtable_lookup(&root->index, key, &v);
    if (found) {
      struct subscriber *s = (struct subscriber *)(uintptr_t)v;
      slot->v[SLOT_DELTA] += (uint64_t)vlr - s->vlr_location;
      slot->v[SLOT_UPDATES]++;
      s->vlr_location = vlr;
      s->updates++;
    }
    PTM_END();
    if (!found) {
      fprintf(stderr, "tatp: subscriber %llu not in the index\n",
              (unsigned long long)key);
      exit(1);
    }
    t->count[0]++;
    t->ops++;
  }
}

static uint64_t vlr_sum, update_sum;
static long misplaced;

static void visit(uint64_t key, uint64_t val, void *arg) {
  (void)arg;
  const struct subscriber *s = (const struct subscriber *)(uintptr_t)val;
  if (sub_nbr_key(s->s_id) != key || strtoull(s->sub_nbr, NULL, 10) != key)
    misplaced++;
  vlr_sum += s->vlr_location;
  update_sum += s->updates;
}

int main(int argc, char **argv) {
  bench.key_range = 100000;
  bench_parse(argc, argv, "tatp", NULL, NULL, NULL);
  root = bench_root("tatp", sizeof *root);
  tx_slot_t *slots = tx_slots_new("tatp");
  int ok = 0;
  PTM_BEGIN();
  root->slots = slots;
  ok = hashtable_init(&root->index, (uint64_t)bench.key_range);
  PTM_END();
  if (!ok)
    tx_out_of_memory("tatp");

  bench_thread_t setup = bench_setup_thread();
  uint64_t initial_sum = 0;
  for (long id = 1; id <= bench.key_range; id++) {
    struct subscriber v = {.s_id = (uint64_t)id,
                           .bits = bench_rand(&setup) & 1023,
                           .hex = bench_rand(&setup),
                           .msc_location = (uint32_t)bench_rand(&setup),
                           .vlr_location = (uint32_t)bench_rand(&setup)};
    snprintf(v.sub_nbr, sizeof v.sub_nbr, "%015ld", id);
    for (int i = 0; i < 10; i++)
      v.byte2[i] = (uint8_t)bench_rand(&setup);
    initial_sum += v.vlr_location;
    int done = 0;
    PTM_BEGIN();
    struct subscriber *s = ptm_malloc(sizeof *s);
    if (s) {
      *s = v;
      done = hashtable_insert(&root->index, sub_nbr_key(v.s_id),
                              (uint64_t)(uintptr_t)s);
    }
    PTM_END();
    if (done != 1)
      tx_out_of_memory("tatp");
  }

  bench_run(worker);

  long rows = hashtable_check(&root->index, "tatp", visit, NULL);
  uint64_t updates = tx_slots_sum(root->slots, SLOT_UPDATES);
  uint64_t delta = tx_slots_sum(root->slots, SLOT_DELTA);
  ok = rows == bench.key_range && misplaced == 0 &&
       vlr_sum == initial_sum + delta && update_sum == updates &&
       updates == (uint64_t)bench_sum(0);
  if (!ok)
    fprintf(stderr,
            "tatp: %ld rows of %ld, %ld misplaced; vlr_location sum %llu, "
            "expected %llu; row updates %llu, in transactions %llu, "
            "workers %ld\n",
            rows, bench.key_range, misplaced, (unsigned long long)vlr_sum,
            (unsigned long long)(initial_sum + delta),
            (unsigned long long)update_sum, (unsigned long long)updates,
            bench_sum(0));
  else
    printf("tatp: %ld subscribers, %llu location updates\n", rows,
           (unsigned long long)updates);
  return bench_finish("tatp", ok);
}
