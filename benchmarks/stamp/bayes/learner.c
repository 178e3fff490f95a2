/* bayes's structure learner: see learner.h. */
#include "learner.h"

#include <math.h>
#include <stdlib.h>

#include "thread.h"
#include "tm.h"

enum { OP_INSERT, OP_REMOVE, OP_REVERSE };

typedef struct task {
  long op;
  long from, to; /* the edge from -> to (reverse: the current edge) */
  double gain;   /* estimated score gain */
} task_t;

/* Best first; ties broken by the edge and operation, so no two tasks are
 * equal for the list. */
static long task_compare(const void *pa, const void *pb) {
  const task_t *a = pa, *b = pb;
  if (a->gain != b->gain)
    return a->gain > b->gain ? -1 : 1;
  if (a->to != b->to)
    return a->to < b->to ? -1 : 1;
  if (a->from != b->from)
    return a->from < b->from ? -1 : 1;
  return a->op < b->op ? -1 : a->op > b->op;
}

/* A thread's private scratch. */
typedef struct local {
  long stride;    /* max_parents + 2 */
  long *parents;  /* snapshot of v's parents */
  long *family;   /* a parent set being scored */
  long *uparents; /* per parent k of v: its parents (row of stride) */
  long *unum;     /* per parent k of v: how many */
  long *ulearned; /* per parent k of v: its learned edges */
  char *visited;  /* path search */
  long *queue;
  task_t *cands; /* candidate operations */
} local_t;

learner_t *learner_alloc(const adtree_t *adtree, long num_threads,
                         long max_parents, long max_learned,
                         double insert_penalty, double quality) {
  learner_t *l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  long nv = adtree->data->num_var;
  l->scorer.adtree = adtree;
  l->scorer.penalty_per_param =
      insert_penalty * log((double)adtree->data->num_record) / 2;
  l->scorer.max_family = max_parents + 1;
  l->num_var = nv;
  l->max_parents = max_parents;
  l->max_learned = max_learned;
  l->quality = quality;
  l->net = net_alloc(nv);
  l->tasks = list_alloc(task_compare);
  l->applied = calloc((size_t)num_threads, sizeof(long));
  l->dropped = calloc((size_t)num_threads, sizeof(long));
  if (!l->net || !l->tasks || !l->applied || !l->dropped)
    return NULL; /* the process exits */
  return l;
}

static local_t *local_alloc(const learner_t *l) {
  local_t *x = calloc(1, sizeof *x);
  if (!x)
    return NULL;
  long s = l->max_parents + 2, nv = l->num_var;
  x->stride = s;
  x->parents = malloc((size_t)s * sizeof(long));
  x->family = malloc((size_t)s * sizeof(long));
  x->uparents = malloc((size_t)(s * s) * sizeof(long));
  x->unum = malloc((size_t)s * sizeof(long));
  x->ulearned = malloc((size_t)s * sizeof(long));
  x->visited = malloc((size_t)nv);
  x->queue = malloc((size_t)nv * sizeof(long));
  x->cands = malloc((size_t)(3 * nv) * sizeof(task_t));
  if (!x->parents || !x->family || !x->uparents || !x->unum || !x->ulearned ||
      !x->visited || !x->queue || !x->cands)
    return NULL; /* the process exits */
  return x;
}

static void local_free(local_t *x) {
  free(x->parents);
  free(x->family);
  free(x->uparents);
  free(x->unum);
  free(x->ulearned);
  free(x->visited);
  free(x->queue);
  free(x->cands);
  free(x);
}

static int may_learn(const learner_t *l, long learned) {
  return l->max_learned < 0 || learned < l->max_learned;
}

/* Whether operation OP on the edge FROM -> TO is valid on the current
 * network (inside a transaction). */
static int valid(const learner_t *l, local_t *x, long op, long from, long to) {
  const net_t *n = l->net;
  const net_var_t *v = &n->vars[to];
  const net_var_t *u = &n->vars[from];
  switch (op) {
  case OP_INSERT:
    return v->num_parents < l->max_parents && may_learn(l, v->learned) &&
           !net_has_edge(n, from, to) &&
           !net_is_path(n, to, from, -1, -1, x->visited, x->queue);
  case OP_REMOVE:
    return net_has_edge(n, from, to);
  default: /* reverse: from -> to becomes to -> from */
    return u->num_parents < l->max_parents && may_learn(l, u->learned) &&
           net_has_edge(n, from, to) &&
           !net_is_path(n, from, to, from, to, x->visited, x->queue);
  }
}

/* Score of V's parents P (NP of them) without WITHOUT (-1: none) and with
 * WITH (-1: none), outside transactions. */
static double score_variant(const learner_t *l, local_t *x, long v,
                            const long *p, long np, long without, long with) {
  long m = 0;
  for (long k = 0; k < np; k++)
    if (p[k] != without)
      x->family[m++] = p[k];
  if (with >= 0)
    x->family[m++] = with;
  return score_local(&l->scorer, v, x->family, m);
}

static int by_gain(const void *a, const void *b) {
  return (int)task_compare(a, b);
}

/* Finds the best operation for V and queues it (nothing if none gains). */
static void find_next(learner_t *l, local_t *x, long v) {
  net_t *n = l->net;
  long np, learned;
  TM_BEGIN();
  const net_var_t *var = &n->vars[v];
  np = var->num_parents;
  learned = var->learned;
  for (long k = 0; k < np; k++) {
    long p = var->parents[k];
    const net_var_t *pv = &n->vars[p];
    x->parents[k] = p;
    x->unum[k] = pv->num_parents;
    x->ulearned[k] = pv->learned;
    for (long j = 0; j < pv->num_parents; j++)
      x->uparents[k * x->stride + j] = pv->parents[j];
  }
  TM_END();

  /* Score the candidates from the snapshot (read-only ADtree). */
  double base = score_local(&l->scorer, v, x->parents, np);
  long nc = 0;
  if (np < l->max_parents && may_learn(l, learned))
    for (long u = 0; u < l->num_var; u++) {
      int parent = u == v;
      for (long k = 0; k < np && !parent; k++)
        parent = x->parents[k] == u;
      if (parent)
        continue;
      double g = score_variant(l, x, v, x->parents, np, -1, u) - base;
      if (g > 0)
        x->cands[nc++] = (task_t){OP_INSERT, u, v, g};
    }
  for (long k = 0; k < np; k++) {
    long u = x->parents[k];
    double g = score_variant(l, x, v, x->parents, np, u, -1) - base;
    if (g > 0)
      x->cands[nc++] = (task_t){OP_REMOVE, u, v, g};
    if (x->unum[k] < l->max_parents && may_learn(l, x->ulearned[k])) {
      const long *up = &x->uparents[k * x->stride];
      double gu = score_variant(l, x, u, up, x->unum[k], -1, v) -
                  score_local(&l->scorer, u, up, x->unum[k]);
      if (g + gu > 0)
        x->cands[nc++] = (task_t){OP_REVERSE, u, v, g + gu};
    }
  }
  if (nc == 0)
    return;
  qsort(x->cands, (size_t)nc, sizeof *x->cands, by_gain);

  int oom = 0;
  TM_BEGIN();
  for (long c = 0; c < nc; c++) {
    task_t *cand = &x->cands[c];
    if (!valid(l, x, cand->op, cand->from, cand->to))
      continue;
    task_t *t = TM_MALLOC(sizeof *t);
    if (t) {
      /* Field by field: a struct copy here (*t = *cand) left the task
       * wrong under gp_orec_lazy and ip_orec_lazy (docs/stamp.md). */
      t->op = cand->op;
      t->from = cand->from;
      t->to = cand->to;
      t->gain = cand->gain;
      if (!list_insert(l->tasks, t))
        oom = 1;
    } else {
      oom = 1;
    }
    break;
  }
  TM_END();
  if (oom)
    l->out_of_memory = 1;
}

/* Applies task T if still valid and gaining (one transaction); frees it.
 * Returns whether it was applied. */
static int apply(learner_t *l, local_t *x, task_t *t) {
  net_t *n = l->net;
  long op = t->op, from = t->from, to = t->to;
  double estimate = t->gain;
  int applied = 0;
  TM_BEGIN();
  applied = 0;
  if (valid(l, x, op, from, to)) {
    net_var_t *v = &n->vars[to];
    net_var_t *u = &n->vars[from];
    /* The parent sets after the operation, scored uninstrumented. */
    long m = 0;
    for (long k = 0; k < v->num_parents; k++)
      if (op == OP_INSERT || v->parents[k] != from)
        score_scratch_set(x->family, m++, v->parents[k]);
    if (op == OP_INSERT)
      score_scratch_set(x->family, m++, from);
    double v_score = score_local(&l->scorer, to, x->family, m);
    double gain = v_score - v->score;
    double u_score = 0;
    if (op == OP_REVERSE) {
      m = 0;
      for (long k = 0; k < u->num_parents; k++)
        score_scratch_set(x->family, m++, u->parents[k]);
      score_scratch_set(x->family, m++, to);
      u_score = score_local(&l->scorer, from, x->family, m);
      gain += u_score - u->score;
    }
    if (gain > 0 && gain >= l->quality * estimate - 1e-9 * fabs(estimate)) {
      if (op == OP_INSERT) {
        net_insert_edge(n, from, to);
        v->learned++;
      } else {
        net_remove_edge(n, from, to);
        if (op == OP_REVERSE) {
          net_insert_edge(n, to, from);
          u->learned++;
          u->score = u_score;
        }
      }
      v->score = v_score;
      applied = 1;
    }
  }
  TM_FREE(t);
  TM_END();
  return applied;
}

void learner_run(void *arg) {
  learner_t *l = arg;
  long tid = thread_getId(), nt = thread_getNumThread();
  local_t *x = local_alloc(l);
  if (!x) {
    l->out_of_memory = 1;
    return;
  }
  /* Every variable starts without parents: its score, its first task. */
  for (long v = tid; v < l->num_var; v += nt) {
    double s = score_local(&l->scorer, v, x->parents, 0);
    TM_BEGIN();
    l->net->vars[v].score = s;
    TM_END();
    find_next(l, x, v);
  }
  thread_barrier_wait();
  long applied = 0, dropped = 0, bad_tasks = 0;
  for (;;) {
    task_t *t = NULL;
    TM_BEGIN();
    list_iter_t it;
    list_iter_reset(&it, l->tasks);
    if (list_iter_hasNext(&it)) {
      t = list_iter_next(&it);
      list_remove(l->tasks, t);
    }
    TM_END();
    if (!t)
      break;
    long v = t->to;
    if (!(t->gain > 0))
      bad_tasks++;
    if (apply(l, x, t))
      applied++;
    else
      dropped++;
    find_next(l, x, v);
  }
  l->applied[tid] = applied;
  l->dropped[tid] = dropped;
  if (bad_tasks) {
    TM_BEGIN();
    l->bad_tasks += bad_tasks;
    TM_END();
  }
  local_free(x);
}

double learner_score(const learner_t *l) {
  double s = 0;
  for (long v = 0; v < l->num_var; v++)
    s += l->net->vars[v].score;
  return s;
}
