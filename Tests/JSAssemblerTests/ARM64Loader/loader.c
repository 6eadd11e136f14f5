// Runs arm64 machine code under qemu-aarch64 for the assembler tests (built with
// aarch64-linux-gnu-gcc -static). The code is written into RW pages, flipped to RX and its
// instruction cache flushed, as the JIT does; then it is called once per input line.
//
//   loader CODE.bin SIGNATURE < lines of arguments
//
// SIGNATURE: "ii>i" (two int64 -> int64), "i>i", "dd>i", "d>i", "ddd>d", "iu>d" (int64 and
// the bits of a double -> double), "mem" (int64 slots[3] = {10, 20, 30} and an index ->
// int64; prints the slots after the call too). Results go to stdout, one line each.
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: loader CODE SIGNATURE\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    static unsigned char code[1 << 16];
    size_t n = fread(code, 1, sizeof code, f);
    fclose(f);
    void *page = mmap(NULL, sizeof code, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) { perror("mmap"); return 2; }
    memcpy(page, code, n);
    if (mprotect(page, sizeof code, PROT_READ | PROT_EXEC) != 0) { perror("mprotect"); return 2; }
    __builtin___clear_cache((char *)page, (char *)page + n);
    const char *sig = argv[2];
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        if (!strcmp(sig, "ii>i")) {
            int64_t a, b;
            if (sscanf(line, "%" SCNd64 " %" SCNd64, &a, &b) != 2) continue;
            printf("%" PRId64 "\n", ((int64_t (*)(int64_t, int64_t))page)(a, b));
        } else if (!strcmp(sig, "i>i")) {
            int64_t a;
            if (sscanf(line, "%" SCNd64, &a) != 1) continue;
            printf("%" PRId64 "\n", ((int64_t (*)(int64_t))page)(a));
        } else if (!strcmp(sig, "dd>i")) {
            double a, b;
            if (sscanf(line, "%lf %lf", &a, &b) != 2) continue;
            printf("%" PRId64 "\n", ((int64_t (*)(double, double))page)(a, b));
        } else if (!strcmp(sig, "d>i")) {
            double a;
            if (sscanf(line, "%lf", &a) != 1) continue;
            printf("%" PRId64 "\n", ((int64_t (*)(double))page)(a));
        } else if (!strcmp(sig, "ddd>d")) {
            double a, b, c;
            if (sscanf(line, "%lf %lf %lf", &a, &b, &c) != 3) continue;
            printf("%.17g\n", ((double (*)(double, double, double))page)(a, b, c));
        } else if (!strcmp(sig, "iu>d")) {
            int64_t a; uint64_t bits;
            if (sscanf(line, "%" SCNd64 " %" SCNu64, &a, &bits) != 2) continue;
            printf("%.17g\n", ((double (*)(int64_t, uint64_t))page)(a, bits));
        } else if (!strcmp(sig, "mem")) {
            int64_t slots[3] = { 10, 20, 30 }, i;
            if (sscanf(line, "%" SCNd64, &i) != 1) continue;
            int64_t r = ((int64_t (*)(int64_t *, int64_t))page)(slots, i);
            printf("%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n", r, slots[0], slots[1], slots[2]);
        } else {
            fprintf(stderr, "bad signature %s\n", sig);
            return 2;
        }
        fflush(stdout);
    }
    return 0;
}
