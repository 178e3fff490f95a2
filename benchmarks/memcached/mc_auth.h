/* mc_auth.h - memcached's ASCII authentication file (-Y, mc_auth.c). */
#ifndef MC_AUTH_H
#define MC_AUTH_H

/* Reads FILE's user:password lines; 0, or -1 with a message. */
int mc_auth_load(const char *file);
/* 1 if USER and PASSWORD are a line of the file, else 0. */
int mc_auth_check(const char *user, const char *password);

#endif /* MC_AUTH_H */
