/* valgrind's callgrind driven from R (.C()), for bench/stage-instructions.sh: collection
 * turned on or off, and the counts since the last dump written under a label. Outside
 * valgrind each request does nothing. */
#include <valgrind/callgrind.h>

void callgrind_toggle(void) {
  CALLGRIND_TOGGLE_COLLECT;
}

void callgrind_dump(char **label) {
  CALLGRIND_DUMP_STATS_AT(label[0]);
}

void callgrind_zero(void) {
  CALLGRIND_ZERO_STATS;
}
