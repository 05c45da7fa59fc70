/* Seed 003's shuffle as a C program would run it with the C standard's sample rand(): new-deck order,
   then for each i swap card i with card rand() % 52. Prints the deck for each srand seed given. Written
   for tests/unit/test_recover.py, which compiles it with the system's cc. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long next_state = 1;

static int sample_rand(void) { /* the C standard's example rand(), RAND_MAX 32767 */
    next_state = (next_state * 1103515245UL + 12345UL) & 0xFFFFFFFFUL;
    return (int)((next_state / 65536UL) % 32768UL);
}

static void sample_srand(unsigned long seed) { next_state = seed & 0xFFFFFFFFUL; }

int main(int argc, char **argv) {
    for (int a = 1; a < argc; a++) {
        int card[52];
        sample_srand(strtoul(argv[a], NULL, 10));
        for (int i = 0; i < 52; i++) card[i] = i;
        for (int i = 0; i < 52; i++) {
            int j = sample_rand() % 52, k = card[i];
            card[i] = card[j];
            card[j] = k;
        }
        for (int i = 0; i < 52; i++) printf(i ? " %d" : "%d", card[i]);
        printf("\n");
    }
    return 0;
}
