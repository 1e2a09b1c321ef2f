/* Uniformly random games of King's Breakfast in plain C: the yardstick for the Python
 * engine's speed (benchmarks/engine_speed.py compiles and runs it in the same run).
 *
 * It plays by the same rules and picks among the same legal actions as the engine's
 * default rules: shuffle the 110 cards (R1, R2), set the table with 2 x players cards
 * (R4), one turn each from the cook (R5): take a dish (R6), draw (R7; a drawn dragon is
 * used or placed at once, R7a), feed a dragon two of the king's dishes (R8), pass only
 * when nothing else is possible (R5b); serve the king (R9); the deck passes to the left
 * (R3); the game ends when the deck cannot set a table (R10). Legal actions are listed in
 * the engine's id order and one is picked uniformly, as the Python benchmark does.
 *
 *     playout GAMES PLAYERS SEED [score]
 *         ->  "games actions cpu_seconds check points actions_squared points_squared"
 *
 * With "score", every game is also scored (R11): points are the points of every seat of
 * every game, summed; the sums of squares (of each game's actions, of each seat's points)
 * let tests/test_c_playout.py hold the means to the engine's within a stated number of
 * standard errors. Without it those three are 0 and the timing is of play alone.
 *
 *     playout replay  <  one game a line: "PLAYERS FIRST_COOK CARD*110 COUNT ACTION*COUNT"
 *         ->  one line a game: each step's legal actions ("a,b,c"), then "=", then the
 *             king's plate and every seat's R11 points and discards
 *
 * Replay plays given games (a deck, top card first, a first cook and the actions) and
 * writes what it found legal at every step and how the game ended, so that
 * tests/test_c_playout.py compares it with the engine game by game; an action it finds
 * illegal ends that game's line with "illegal".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { DISHES = 7, DRAGON = 7, CARDS = 110, PER_DISH = 15, DRAGONS = 5 };
enum { DRAW = 7, PLACE = 8, FIRST_FEED = 9, PASS = 37 };

static uint64_t rng_state;

/* splitmix64: a small, good generator; a double in [0, 1) from its top 53 bits */
static double uniform(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static int feed_a[28], feed_b[28];

typedef struct {
    int n, deck[CARDS], top, table[DISHES + 1], king[DISHES];
    int hands[5][DISHES], removed, to_move, cook, pending, mask, next[5];
} Game;

/* takes and draw by (dishes on the table as bits) | deck-not-empty << 7, as the engine's
 * lookup table: most turns need no loop at all */
static unsigned char base_actions[256][8], base_count[256];

static void shuffle(int *deck) {
    int i = 0;
    for (int d = 0; d < DISHES; d++)
        for (int k = 0; k < PER_DISH; k++) deck[i++] = d;
    for (int k = 0; k < DRAGONS; k++) deck[i++] = DRAGON;
    for (int last = CARDS - 1; last > 0; last--) {
        int other = (int)(uniform() * (last + 1));
        int t = deck[last]; deck[last] = deck[other]; deck[other] = t;
    }
}

/* R4 and R10: set the table, or end the game (to_move = -1) */
static void deal(Game *g) {
    int need = 2 * g->n;
    if (CARDS - g->top < need) {
        g->removed += CARDS - g->top;
        g->top = CARDS;
        g->to_move = -1;
        return;
    }
    int mask = 0;
    for (int k = 0; k < need; k++) {
        int card = g->deck[g->top++];
        g->table[card]++;
        mask |= 1 << card;
    }
    g->mask = mask & 0x7f;
    g->to_move = g->cook;
}

static int legal(const Game *g, int *out) {
    int count = 0;
    int can_feed = 0;
    if (!g->pending) {
        int key = g->mask | (g->top < CARDS) << 7;
        count = base_count[key];
        for (int k = 0; k < count; k++) out[k] = base_actions[key][k];
        can_feed = g->table[DRAGON] >= 1;
    } else {
        out[count++] = PLACE;
        can_feed = 1;
    }
    if (can_feed) {
        for (int f = 0; f < 28; f++) {
            int a = feed_a[f], b = feed_b[f];
            if (a == b ? g->king[a] >= 2 : (g->king[a] && g->king[b]))
                out[count++] = FIRST_FEED + f;
        }
    }
    if (!count) out[count++] = PASS;
    return count;
}

static void apply(Game *g, int action) {
    int seat = g->to_move;
    if (action < DISHES) {
        g->hands[seat][action] += g->table[action];
        g->table[action] = 0;
        g->mask &= ~(1 << action);
    } else if (action == DRAW) {
        int card = g->deck[g->top++];
        if (card == DRAGON) { g->pending = 1; return; }  /* the same player moves again */
        g->hands[seat][card]++;
    } else if (action == PLACE) {
        g->pending = 0;
        g->table[DRAGON]++;
    } else if (action != PASS) {
        int f = action - FIRST_FEED;
        g->king[feed_a[f]]--;
        g->king[feed_b[f]]--;
        g->removed += 3;
        if (g->pending) g->pending = 0; else g->table[DRAGON]--;
    }
    int following = g->next[seat];
    if (following != g->cook) { g->to_move = following; return; }
    if (g->mask) {
        for (int d = 0; d < DISHES; d++) { g->king[d] += g->table[d]; g->table[d] = 0; }
        g->mask = 0;
    }
    g->cook = g->next[g->cook];
    deal(g);
}

static void tables(void) {
    for (int a = 0, f = 0; a < DISHES; a++)
        for (int b = a; b < DISHES; b++, f++) { feed_a[f] = a; feed_b[f] = b; }
    for (int key = 0; key < 256; key++) {
        int count = 0;
        for (int d = 0; d < DISHES; d++)
            if (key >> d & 1) base_actions[key][count++] = (unsigned char)d;
        if (key >> 7) base_actions[key][count++] = DRAW;
        base_count[key] = (unsigned char)count;
    }
}

/* R11: a seat's points and discards at the end (a dish held more often than the king's
 * is discarded, R11) */
static void score(const Game *g, int seat, long *points, long *discards) {
    *points = 0;
    *discards = 0;
    for (int d = 0; d < DISHES; d++) {
        if (g->hands[seat][d] <= g->king[d]) *points += (long)g->hands[seat][d] * g->king[d];
        else *discards += g->hands[seat][d];
    }
}

static int replay(void) {
    int players, cook, count, action, options[40];
    while (scanf("%d %d", &players, &cook) == 2) {
        if (players < 3 || players > 5 || cook < 0 || cook >= players) return 2;
        Game g = {0};
        g.n = players;
        g.cook = cook;
        for (int s = 0; s < players; s++) g.next[s] = (s + 1) % players;
        for (int c = 0; c < CARDS; c++)
            if (scanf("%d", &g.deck[c]) != 1 || g.deck[c] < 0 || g.deck[c] > DRAGON) return 2;
        if (scanf("%d", &count) != 1) return 2;
        deal(&g);
        int ok = 1;
        for (int k = 0; k < count; k++) {
            if (scanf("%d", &action) != 1) return 2;
            if (!ok) continue;
            int legal_count = g.to_move >= 0 ? legal(&g, options) : 0;
            int found = 0;
            for (int i = 0; i < legal_count; i++) {
                printf(i ? ",%d" : "%d", options[i]);
                found |= options[i] == action;
            }
            printf(" ");
            if (!found) { printf("illegal"); ok = 0; continue; }
            apply(&g, action);
        }
        if (ok) {
            if (g.to_move >= 0) printf("unfinished ");
            printf("=");
            for (int d = 0; d < DISHES; d++) printf(" %d", g.king[d]);
            for (int s = 0; s < players; s++) {
                long points, discards;
                score(&g, s, &points, &discards);
                printf(" %ld/%ld", points, discards);
            }
        }
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && argv[1][0] == 'r') { tables(); return replay(); }
    long games = argc > 1 ? atol(argv[1]) : 100000;
    int players = argc > 2 ? atoi(argv[2]) : 4;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    int scored = argc > 4 && argv[4][0] == 's';
    if (players < 3 || players > 5) { fprintf(stderr, "3 to 5 players\n"); return 2; }
    tables();
    long actions = 0, check = 0;
    double points = 0.0, actions_squared = 0.0, points_squared = 0.0;
    int options[40];
    clock_t start = clock();
    for (long k = 0; k < games; k++) {
        Game g = {0};
        g.n = players;
        for (int s = 0; s < players; s++) g.next[s] = (s + 1) % players;
        shuffle(g.deck);
        deal(&g);
        long before = actions;
        while (g.to_move >= 0) {
            int key = g.mask | (g.top < CARDS) << 7;
            if (!g.pending && !g.table[DRAGON] && base_count[key]) {
                /* no dragon in play: the common case is one table lookup, as in the engine */
                apply(&g, base_actions[key][(int)(uniform() * base_count[key])]);
            } else {
                int count = legal(&g, options);
                apply(&g, options[(int)(uniform() * count)]);
            }
            actions++;
        }
        check += g.removed + g.king[0];
        if (!scored) continue;
        actions_squared += (double)(actions - before) * (double)(actions - before);
        for (int s = 0; s < players; s++) {  /* R11: a dish beyond the king's is discarded */
            long mine, discards;
            score(&g, s, &mine, &discards);
            points += (double)mine;
            points_squared += (double)mine * (double)mine;
        }
    }
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("%ld %ld %.6f %ld %.0f %.0f %.0f\n", games, actions, seconds, check, points,
           actions_squared, points_squared);
    return 0;
}
