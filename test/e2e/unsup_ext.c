/* Compiled WITHOUT the plugin: no transactional clone exists for ext_bump. */
void ext_bump(long *p) { *p += 1; }
