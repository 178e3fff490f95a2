/*
 * stamp_result.h - the RESULT line of a STAMP application (the benchmark
 * contract of DESIGN.md): stamp_result_start() at the start of the timed
 * parallel phase, stamp_result_print() at the end, after validation.
 *
 *   RESULT bench=vacation lib=ip_orec_lazy threads=2 ops_per_s=.. commits=..
 *          aborts=.. clwb_per_tx=.. sfence_per_tx=.. time_s=..
 *
 * ops_per_s is committed transactions per second of the timed phase; the
 * statistics cover that phase only (setup and validation are excluded).
 */
#ifndef STAMP_RESULT_H
#define STAMP_RESULT_H

void stamp_result_start(void);
void stamp_result_stop(void);
/* The whole timed phase of an application that runs one parallel step:
 * starts THREADS threads (thread.h), runs FN(ARG) on all of them between
 * stamp_result_start() and stamp_result_stop(), shuts the threads down. */
void stamp_result_run(long threads, void (*fn)(void *), void *arg);
/* The seconds of the timed phase. */
double stamp_result_seconds(void);
/* Prints the RESULT line and "NAME: OK" (or the failure on stderr);
 * returns the exit status: 0 if OK, 1 otherwise. */
int stamp_result_print(const char *name, long threads, int ok);

#endif /* STAMP_RESULT_H */
