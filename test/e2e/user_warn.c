#include <ptm.h>
#include <stdio.h>
static long x;
int main(void) {
  PTM_BEGIN();
  x++;
  printf("x\n");
  PTM_END();
  return x != 1;
}
